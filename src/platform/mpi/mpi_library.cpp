#include "platform/mpi/mpi_library.hpp"

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's extensions: MPIX_Query_cuda_support
#endif

#include <cctype>

namespace hwcomm {

namespace {

// "Open MPI v4.1.4, package: ..." -> "4.1.4": the first run of digits and dots after a 'v' or a space.
std::string version_in(const std::string& library) {
    for (std::size_t i = 0; i + 1 < library.size(); ++i) {
        if ((library[i] != 'v' && library[i] != ' ') || !std::isdigit(static_cast<unsigned char>(library[i + 1])))
            continue;
        std::size_t j = i + 1;
        while (j < library.size() && (std::isdigit(static_cast<unsigned char>(library[j])) || library[j] == '.')) ++j;
        return library.substr(i + 1, j - i - 1);
    }
    return "";
}

void query_cuda_awareness(MpiLibraryInfo& info) {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    info.cuda_aware = MPIX_Query_cuda_support() == 1;
    info.cuda_aware_source = "MPIX_Query_cuda_support";
#elif defined(MPIX_CUDA_AWARE_SUPPORT)
    info.cuda_aware = false;
    info.cuda_aware_source = "mpi-ext.h: MPIX_CUDA_AWARE_SUPPORT is 0 (library built without CUDA)";
#else
    info.cuda_aware = std::nullopt;
    info.cuda_aware_source = "unknown: the MPI library has no MPIX_CUDA_AWARE_SUPPORT (mpi-ext.h)";
#endif
}

}  // namespace

MpiLibraryInfo query_mpi_library() {
    MpiLibraryInfo info;
    char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int length = 0;
    if (MPI_Get_library_version(text, &length) == MPI_SUCCESS) {
        info.library = std::string(text, static_cast<std::size_t>(length));
        if (const auto nl = info.library.find('\n'); nl != std::string::npos) info.library.resize(nl);
        while (!info.library.empty() && (info.library.back() == '\0' || info.library.back() == ' '))
            info.library.pop_back();
    }
    info.version = version_in(info.library);
    int major = 0, minor = 0;
    if (MPI_Get_version(&major, &minor) == MPI_SUCCESS)
        info.standard = std::to_string(major) + "." + std::to_string(minor);
    query_cuda_awareness(info);
    return info;
}

nlohmann::json mpi_library_json(const MpiLibraryInfo& info) {
    return {{"library", info.library},
            {"version", info.version},
            {"standard", info.standard},
            {"cuda_aware", info.cuda_aware ? nlohmann::json(*info.cuda_aware) : nlohmann::json(nullptr)},
            {"cuda_aware_source", info.cuda_aware_source}};
}

}  // namespace hwcomm
