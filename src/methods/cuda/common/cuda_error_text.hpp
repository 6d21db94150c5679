#pragma once
// Turning a failed CUDA call into the one-line message a record carries. Pure
// (takes the error's code, name and text), so it is tested without a GPU.
#include <string>
#include <string_view>

namespace hwcomm::cuda {

// Errors after which the CUDA context is unusable: every later call in this
// process fails too (illegal address, launch failure, ECC...). Codes are
// cudaError_t values.
bool is_sticky_cuda_error(int code);

// "cudaMemcpyAsync(...) failed at copy_session.cpp:42: cudaErrorInvalidValue (invalid argument)"
// plus, for sticky errors, a note that the run measures no more GPU records.
std::string describe_cuda_failure(int code, std::string_view name, std::string_view text, std::string_view expr,
                                  std::string_view file, int line);

}  // namespace hwcomm::cuda
