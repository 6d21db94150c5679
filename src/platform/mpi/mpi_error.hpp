#pragma once
// Every MPI call goes through mpi_check: with MPI_ERRORS_RETURN set on the
// communicators (mpi_environment.hpp), a failed call becomes an MpiError
// carrying MPI's own text, which the run records like any measurement error.
#include <string>

#include <mpi.h>

#include "core/error.hpp"

namespace hwcomm {

class MpiError : public MeasurementError {
public:
    using MeasurementError::MeasurementError;
};

// "MPI_Send: MPI_ERR_TRUNCATE: message truncated".
std::string mpi_error_text(int code);

inline void mpi_check(int code, const char* call) {
    if (code != MPI_SUCCESS) throw MpiError(std::string(call) + ": " + mpi_error_text(code));
}

}  // namespace hwcomm
