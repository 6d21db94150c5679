#include "platform/mpi/mpi_error.hpp"

namespace hwcomm {

std::string mpi_error_text(int code) {
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
    return std::string(text, static_cast<std::size_t>(length));
}

}  // namespace hwcomm
