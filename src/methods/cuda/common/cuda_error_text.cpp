#include "methods/cuda/common/cuda_error_text.hpp"

#include <algorithm>
#include <array>

namespace hwcomm::cuda {

bool is_sticky_cuda_error(int code) {
    // IllegalAddress 700, LaunchTimeout 702, Assert 710, HardwareStackError 714,
    // IllegalInstruction 715, MisalignedAddress 716, InvalidAddressSpace 717,
    // InvalidPc 718, LaunchFailure 719, ECCUncorrectable 214, NvlinkUncorrectable 220.
    static constexpr std::array<int, 11> sticky{700, 702, 710, 714, 715, 716, 717, 718, 719, 214, 220};
    return std::find(sticky.begin(), sticky.end(), code) != sticky.end();
}

std::string describe_cuda_failure(int code, std::string_view name, std::string_view text, std::string_view expr,
                                  std::string_view file, int line) {
    const auto slash = file.find_last_of('/');
    const std::string_view base = slash == std::string_view::npos ? file : file.substr(slash + 1);
    std::string msg;
    msg.append(expr).append(" failed at ").append(base).append(":").append(std::to_string(line)).append(": ");
    msg.append(name).append(" (").append(text).append(")");
    if (is_sticky_cuda_error(code))
        msg += " [sticky error: the CUDA context of this process is unusable; the run measures no more GPU records]";
    return msg;
}

}  // namespace hwcomm::cuda
