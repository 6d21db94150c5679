#include <algorithm>

#include "methods/cpu/pattern.hpp"
#include "methods/mpi/transfer_buffers.hpp"
#include "platform/hwloc_topology.hpp"
#include "platform/numa_buffer.hpp"
#include "platform/thread_binding.hpp"

namespace hwcomm {

namespace {

class HostBuffers final : public TransferBuffers {
public:
    // The rank's thread runs on the buffers' node for the record (MPI's copies
    // for shared memory, its progress for a NIC), then goes back.
    HostBuffers(int numa, std::size_t bytes)
        : numa_(numa), binding_(topo_, numa), send_(topo_, numa, std::max<std::size_t>(bytes, 1)), recv_(topo_, numa, std::max<std::size_t>(bytes, 1)) {}
    void* send_data() override { return send_.data(); }
    void* recv_data() override { return recv_.data(); }
    void fill_send(std::size_t bytes, std::uint64_t seed) override { fill_pattern(send_.data(), bytes, seed); }
    void poison_recv(std::size_t bytes, std::uint64_t expected_seed) override { poison(recv_.data(), bytes, expected_seed); }
    std::string check_recv(std::size_t bytes, std::uint64_t seed) override {
        return pattern_mismatch(recv_.data(), bytes, seed);
    }
    std::size_t capacity() const override { return std::min(send_.size(), recv_.size()); }
    nlohmann::json context() const override {
        return {{"memory", "numa"},
                {"numa", numa_},
                {"send_placement", placement_to_json(send_.placement())},
                {"recv_placement", placement_to_json(recv_.placement())},
                {"thread_bound_to_numa", binding_.bound()},
                {"binding_note", binding_.note()}};
    }

private:
    HwlocTopology topo_;  // before the buffers: they borrow it
    int numa_;
    ScopedThreadBinding binding_;
    NumaBuffer send_, recv_;
};

}  // namespace

std::unique_ptr<TransferBuffers> make_host_buffers(int numa_os_index, std::size_t bytes) {
    return std::make_unique<HostBuffers>(numa_os_index, bytes);
}

}  // namespace hwcomm
