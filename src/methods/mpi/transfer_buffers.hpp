#pragma once
// One rank's buffers for an inter-node transfer: what MPI sends from and
// receives into, plus the untimed pattern work around each sample. Host
// buffers are NUMA-bound (host_buffers.cpp); GPU buffers are device memory,
// handed to MPI directly (CUDA-aware library) or staged through pinned host
// memory, the staging copies then being part of the timed transfer
// (gpu_buffers.cpp, CUDA builds only).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

namespace hwcomm {

class TransferBuffers {
public:
    virtual ~TransferBuffers() = default;
    // The pointers MPI is given.
    virtual void* send_data() = 0;
    virtual void* recv_data() = 0;
    // Timed: before each send (staged: device -> pinned), after each receive (pinned -> device).
    virtual void before_send(std::size_t bytes) { (void)bytes; }
    virtual void after_recv(std::size_t bytes) { (void)bytes; }
    // Untimed: the pattern of `seed` into the send buffer; the complement of
    // the pattern of `expected_seed` into the receive buffer.
    virtual void fill_send(std::size_t bytes, std::uint64_t seed) = 0;
    virtual void poison_recv(std::size_t bytes, std::uint64_t expected_seed) = 0;
    // "" when the receive buffer holds the pattern of `seed`, else what differs.
    virtual std::string check_recv(std::size_t bytes, std::uint64_t seed) = 0;
    virtual std::size_t capacity() const = 0;
    // Where the buffers are (NUMA placement, GPU, path), for the record's context.
    virtual nlohmann::json context() const = 0;
};

// Send and receive buffers of `bytes` each on NUMA node `numa_os_index`.
std::unique_ptr<TransferBuffers> make_host_buffers(int numa_os_index, std::size_t bytes);

// Device buffers on CUDA device `ordinal`; `staged`: MPI sees pinned host
// copies. Throws MeasurementError in builds without CUDA.
std::unique_ptr<TransferBuffers> make_gpu_buffers(int ordinal, std::size_t bytes, bool staged);

}  // namespace hwcomm
