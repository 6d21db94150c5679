#pragma once
// Transfer sets as a user writes them (hwcomm run --transfers FILE, hwcomm
// predict --transfers FILE; docs/transfers.md): one transfer per line,
//
//   set, executor, src, dst, size[, host_mem]
//   ring, ce, gpu0, gpu1, 256M
//   ring, ce, gpu1, gpu0, 256M
//   mixed, sm:16@gpu1, gpu0, gpu1, 64M
//   mixed, cpu:8, numa0, numa1, 64M, 
//
// The transfers of one set start together (lanes behind one start gate);
// sets are measured one after another. Executor: ce | sm | tma | cpu, then
// optionally :N (SMs a kernel is sized for, threads of a CPU lane) and @ID
// (the GPU whose stream issues a GPU-to-GPU lane; the NUMA node whose cores
// run a CPU lane). Size: bytes with K/M/G (binary), or "sweep" / empty for
// the run's sizes; every transfer of a set moves the same size. '#' starts a
// comment line; a first line "set,executor,src,dst,size,host_mem" is a header.
// This file is syntax only; transfer_set_check.hpp resolves a file against a
// machine's graph.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hwcomm {

enum class TransferExecutor { Ce, Sm, Tma, Cpu };
const char* to_string(TransferExecutor executor);

// One line of the file: one transfer.
struct TransferLine {
    std::size_t line = 0;  // 1-based, in the file it came from
    std::string set;
    TransferExecutor executor = TransferExecutor::Ce;
    unsigned units = 0;    // EXEC:N; 0 = the default (every SM of the GPU, every core of the node)
    std::string at;        // EXEC@ID; "" = the default
    std::string src, dst;
    std::uint64_t bytes = 0;  // 0 = the run's sizes
    std::string host_mem;     // "" = the default (pinned for a copy with a host end)

    std::string executor_text() const;  // "sm:16@gpu1"
};

struct TransferSet {
    std::string name;
    std::size_t line = 0;     // its first transfer
    std::uint64_t bytes = 0;  // every transfer's size; 0 = the run's sizes
    std::vector<TransferLine> transfers;
};

struct TransferSetFile {
    std::string source;  // the file name (or "preset:ring") that messages name
    std::vector<TransferSet> sets;
};

// Limits that keep any input cheap to check (the file is refused beyond them).
inline constexpr std::size_t kMaxTransferSetFileBytes = 1 << 20;
inline constexpr std::size_t kMaxTransfersPerSet = 256;
inline constexpr std::size_t kMaxTransferSets = 4096;

// Parses the text of a transfer-set file. Throws UsageError
// "SOURCE:LINE: what is wrong" (one line) for any malformed line, a set
// whose transfers differ in size, a set name used twice apart, too many
// transfers or sets, and a file without any transfer.
TransferSetFile parse_transfer_sets(std::string_view text, const std::string& source);

// The file in the canonical form parse_transfer_sets reads back (a header,
// then one line per transfer); what `hwcomm list --transfers` prints and a
// results file keeps for --resume.
std::string format_transfer_sets(const TransferSetFile& file);

}  // namespace hwcomm
