#include "methods/cuda/common/host_buffer_pool.hpp"

#include <algorithm>
#include <new>
#include <utility>

#include <cuda_runtime_api.h>

#include "core/device_error.hpp"
#include "platform/host_info.hpp"
#include "platform/recycling_pool.hpp"

namespace hwcomm::cuda {

namespace {

using Key = std::pair<int, int>;  // kind, NUMA node

constexpr std::size_t kMaxIdleBytes = std::size_t{8} << 30;

struct Pool {
    HwlocTopology topology;  // the buffers' own, alive as long as the process
    RecyclingPool<Key, HostBuffer> idle{std::min(kMaxIdleBytes, static_cast<std::size_t>(available_memory_bytes() / 8))};
};

// Never destroyed: idle buffers outlive main, and freeing them after the CUDA
// runtime unloaded would only print errors.
Pool& pool() {
    static Pool* p = new Pool;
    return *p;
}

// A larger idle buffer serves a request of up to this many times smaller.
constexpr std::size_t kLargerServes = 4;

// What the session sees: the size it asked for, the first bytes of the buffer.
class PooledHostBuffer final : public HostBuffer {
public:
    PooledHostBuffer(std::unique_ptr<HostBuffer> inner, Key key, bool recycled, std::size_t bytes)
        : inner_(std::move(inner)), key_(key), recycled_(recycled), bytes_(bytes) {}
    ~PooledHostBuffer() override {
        // A sticky error of this thread's current device (a lost context) keeps
        // the buffer from the pool; a pending error that is not sticky (peer
        // access already enabled) does not. A loss on another GPU is not seen
        // here: no GPU record runs after one (the engine ends the GPU part).
        if (cudaPeekAtLastError() != cudaSuccess && cudaFree(nullptr) != cudaSuccess) return;
        const std::size_t bytes = inner_->size();  // before the move: argument order is unspecified
        try {
            auto evicted = pool().idle.give(key_, bytes, std::move(inner_));
            evicted.clear();  // freed here, outside the pool's lock
        } catch (...) {
            // No room to keep it (a list node's allocation): the buffer, moved into
            // give()'s argument, was freed as the exception left it.
        }
    }
    PooledHostBuffer(const PooledHostBuffer&) = delete;
    PooledHostBuffer& operator=(const PooledHostBuffer&) = delete;
    std::byte* data() override { return inner_->data(); }
    std::byte* device_view() override { return inner_->device_view(); }
    std::size_t size() const override { return bytes_; }
    HostMemKind kind() const override { return inner_->kind(); }
    void on_reuse() override { inner_->on_reuse(); }
    nlohmann::json describe() const override {
        nlohmann::json j = inner_->describe();
        j["recycled"] = recycled_;
        if (inner_->size() != bytes_) j["allocated_bytes"] = inner_->size();
        return j;
    }

private:
    std::unique_ptr<HostBuffer> inner_;
    Key key_;
    bool recycled_;
    std::size_t bytes_;
};

}  // namespace

std::unique_ptr<HostBuffer> pooled_host_buffer(HostMemKind kind, int numa_os_index, std::size_t bytes,
                                               const std::function<std::unique_ptr<HostBuffer>(const HwlocTopology&)>& make) {
    Pool& p = pool();
    const Key key{static_cast<int>(kind), numa_os_index};
    if (auto idle = p.idle.take(key, bytes, kLargerServes); idle.thing) {
        idle.thing->on_reuse();
        return std::make_unique<PooledHostBuffer>(std::move(idle.thing), key, true, bytes);
    }
    std::unique_ptr<HostBuffer> fresh;
    // The idle buffers may be what an allocation lacked: pinned or NUMA-bound
    // memory, heap, or the huge pages a huge-page buffer asks for.
    const auto retry_after_drain = [&] {
        if (p.idle.idle_count() == 0) return false;
        drain_host_pool();
        return true;
    };
    try {
        fresh = make(p.topology);
    } catch (const MeasurementError&) {  // DeviceError, a failed NUMA-bound allocation, huge pages short
        if (!retry_after_drain()) throw;
        fresh = make(p.topology);
    } catch (const std::bad_alloc&) {
        if (!retry_after_drain()) throw;
        fresh = make(p.topology);
    }
    return std::make_unique<PooledHostBuffer>(std::move(fresh), key, false, bytes);
}

HostPoolStats host_pool_stats() {
    const Pool& p = pool();
    return {p.idle.idle_bytes(), p.idle.idle_count(), p.idle.reused(), p.idle.cap_bytes()};
}

void drain_host_pool() {
    auto idle = pool().idle.drain();
    idle.clear();
}

}  // namespace hwcomm::cuda
