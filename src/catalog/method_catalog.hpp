#pragma once
// The method catalog: one row per method (method_row.hpp). An immutable
// value: the built-in one holds every method of this source tree; a test or
// a reader of a results file extends a copy with rows of its own.
#include <string>
#include <vector>

#include "catalog/method_row.hpp"

namespace hwcomm {

class MethodCatalog {
public:
    // Throws std::invalid_argument on a row without a name or a name twice.
    explicit MethodCatalog(std::vector<MethodRow> rows);
    const MethodRow* find(const std::string& name) const;
    const std::vector<MethodRow>& rows() const { return rows_; }
    // A copy with more rows (same checks).
    MethodCatalog with(std::vector<MethodRow> more) const;

private:
    std::vector<MethodRow> rows_;
};

// Every method of this source tree, whatever this build provides (row.build says).
const MethodCatalog& builtin_catalog();

// The rows of one family of methods (rows_*.cpp); builtin_catalog joins them.
std::vector<MethodRow> cpu_and_disk_rows();
std::vector<MethodRow> cuda_copy_rows();
std::vector<MethodRow> cuda_concurrency_and_load_rows();
std::vector<MethodRow> cuda_memory_rows();  // zero-copy, unified memory, gpumem
std::vector<MethodRow> transfer_set_rows();  // hwcomm run --transfers
std::vector<MethodRow> mpi_rows();
std::vector<MethodRow> test_fault_rows();

}  // namespace hwcomm
