#include "methods/cuda/common/host_memory.hpp"

#include "core/error.hpp"
#include "methods/cuda/common/host_buffer_pool.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "platform/node_touch.hpp"
#include "platform/thread_binding.hpp"

namespace hwcomm::cuda {

namespace {

nlohmann::json base_description(HostMemKind kind, int numa, const Placement& placement, const std::string& how) {
    return {{"kind", to_string(kind)}, {"numa", numa}, {"placement", placement_to_json(placement)}, {"how", how}};
}

std::string binding_note(const ScopedThreadBinding& bind, int numa) {
    return bind.bound() ? "allocating thread bound to NUMA node " + std::to_string(numa)
                        : "allocating thread NOT bound: " + bind.note();
}

class PageableHostBuffer final : public HostBuffer {
public:
    PageableHostBuffer(const HwlocTopology& topo, int numa, std::size_t bytes) : topo_(&topo), bytes_(bytes), numa_(numa) {
        ScopedThreadBinding bind(topo, numa);
        data_ = std::make_unique_for_overwrite<std::byte[]>(bytes == 0 ? 1 : bytes);
        touch_pages_on_node(topo, numa, data_.get(), bytes);  // first touch by threads of the node places the pages
        placement_ = locate_pages(topo, data_.get(), bytes, numa);
        how_ = "malloc, pages first-touched by threads bound to the node; " + binding_note(bind, numa);
    }
    std::byte* data() override { return data_.get(); }
    std::byte* device_view() override { return nullptr; }
    std::size_t size() const override { return bytes_; }
    HostMemKind kind() const override { return HostMemKind::Pageable; }
    // The kernel may have moved (NUMA balancing) or swapped pages while the buffer lay idle.
    void on_reuse() override { placement_ = locate_pages(*topo_, data_.get(), bytes_, numa_); }
    nlohmann::json describe() const override { return base_description(kind(), numa_, placement_, how_); }

private:
    const HwlocTopology* topo_;  // the pool's: it outlives every buffer
    std::unique_ptr<std::byte[]> data_;
    std::size_t bytes_;
    int numa_;
    Placement placement_;
    std::string how_;
};

// cudaHostAlloc'd memory (pinned or write-combined).
class CudaHostAllocBuffer final : public HostBuffer {
public:
    CudaHostAllocBuffer(HostMemKind kind, const HwlocTopology& topo, int numa, std::size_t bytes)
        : kind_(kind), bytes_(bytes), numa_(numa) {
        unsigned flags = cudaHostAllocPortable | cudaHostAllocMapped;
        if (kind == HostMemKind::WriteCombined) flags |= cudaHostAllocWriteCombined;
        ScopedThreadBinding bind(topo, numa);
        void* p = nullptr;
        HWCOMM_CUDA_CHECK(cudaHostAlloc(&p, bytes == 0 ? 1 : bytes, flags));
        data_ = static_cast<std::byte*>(p);
        // The driver pins (and so places) the pages at allocation; touching
        // also covers drivers that populate lazily.
        touch_pages_on_node(topo, numa, data_, bytes);
        void* dev = nullptr;
        if (!HWCOMM_CUDA_WARN(cudaHostGetDevicePointer(&dev, p, 0))) dev = nullptr;
        device_view_ = static_cast<std::byte*>(dev);
        placement_ = locate_pages(topo, data_, bytes, numa);
        how_ = std::string("cudaHostAlloc(Portable|Mapped") +
               (kind == HostMemKind::WriteCombined ? "|WriteCombined)" : ")") + "; " + binding_note(bind, numa);
    }
    ~CudaHostAllocBuffer() override {
        if (data_) HWCOMM_CUDA_WARN(cudaFreeHost(data_));
    }
    CudaHostAllocBuffer(const CudaHostAllocBuffer&) = delete;
    CudaHostAllocBuffer& operator=(const CudaHostAllocBuffer&) = delete;
    std::byte* data() override { return data_; }
    std::byte* device_view() override { return device_view_; }
    std::size_t size() const override { return bytes_; }
    HostMemKind kind() const override { return kind_; }
    nlohmann::json describe() const override { return base_description(kind_, numa_, placement_, how_); }

private:
    HostMemKind kind_;
    std::size_t bytes_;
    int numa_;
    std::byte* data_ = nullptr;
    std::byte* device_view_ = nullptr;
    Placement placement_;
    std::string how_;
};

// A strictly bound NumaBuffer, page-locked with cudaHostRegister; with `huge`,
// transparent huge pages asked for before the first touch.
class RegisteredHostBuffer final : public HostBuffer {
public:
    RegisteredHostBuffer(const HwlocTopology& topo, int numa, std::size_t bytes, bool huge)
        : buffer_(topo, numa, bytes == 0 ? 1 : bytes, BufferOptions{.huge_pages = huge}), bytes_(bytes), numa_(numa),
          huge_(huge) {
        if (huge) {
            const std::string why = huge_pages_shortfall(buffer_.huge_pages());
            if (!why.empty()) throw Unavailable("no huge pages on NUMA node " + std::to_string(numa) + ": " + why);
        }
        HWCOMM_CUDA_CHECK(
            cudaHostRegister(buffer_.data(), buffer_.size(), cudaHostRegisterPortable | cudaHostRegisterMapped));
        registered_ = true;
        void* dev = nullptr;
        if (!HWCOMM_CUDA_WARN(cudaHostGetDevicePointer(&dev, buffer_.data(), 0))) dev = nullptr;
        device_view_ = static_cast<std::byte*>(dev);
    }
    ~RegisteredHostBuffer() override {
        if (registered_) HWCOMM_CUDA_WARN(cudaHostUnregister(buffer_.data()));
    }
    RegisteredHostBuffer(const RegisteredHostBuffer&) = delete;
    RegisteredHostBuffer& operator=(const RegisteredHostBuffer&) = delete;
    std::byte* data() override { return buffer_.data(); }
    std::byte* device_view() override { return device_view_; }
    std::size_t size() const override { return bytes_; }
    HostMemKind kind() const override { return huge_ ? HostMemKind::Huge : HostMemKind::Registered; }
    nlohmann::json describe() const override {
        nlohmann::json j = base_description(
            kind(), numa_, buffer_.placement(),
            std::string("hwloc_alloc_membind(BIND, STRICT), ") + (huge_ ? "madvise(MADV_HUGEPAGE), " : "") +
                "touched, cudaHostRegister(Portable|Mapped)");
        if (huge_) {
            // What the kernel really gave: the bytes on huge pages (smaps AnonHugePages) and their size.
            j["huge_pages"] = huge_pages_to_json(buffer_.huge_pages());
            j["huge_pages"]["page_bytes"] = thp_page_bytes();
            j["huge_pages"]["backed_fraction"] =
                static_cast<double>(buffer_.huge_pages().backed_bytes) / static_cast<double>(buffer_.size());
        }
        return j;
    }

private:
    NumaBuffer buffer_;
    std::size_t bytes_;
    int numa_;
    bool huge_;
    bool registered_ = false;
    std::byte* device_view_ = nullptr;
};

}  // namespace

HostMemKind host_mem_kind_from_string(const std::string& text) {
    if (text == "pageable") return HostMemKind::Pageable;
    if (text == "pinned") return HostMemKind::Pinned;
    if (text == "registered") return HostMemKind::Registered;
    if (text == "wc") return HostMemKind::WriteCombined;
    if (text == "huge") return HostMemKind::Huge;
    throw UsageError("unknown host memory kind '" + text + "' (pageable|pinned|registered|wc|huge)");
}

const char* to_string(HostMemKind kind) {
    switch (kind) {
    case HostMemKind::Pageable: return "pageable";
    case HostMemKind::Pinned: return "pinned";
    case HostMemKind::Registered: return "registered";
    case HostMemKind::WriteCombined: return "wc";
    case HostMemKind::Huge: return "huge";
    }
    return "?";
}

std::unique_ptr<HostBuffer> make_host_buffer(HostMemKind kind, const HwlocTopology& topo, int numa_os_index,
                                             std::size_t bytes) {
    if (!topo.numa_node(numa_os_index))
        throw MeasurementError("NUMA node " + std::to_string(numa_os_index) + " does not exist on this machine");
    // Made with the pool's topology, which outlives the session (host_buffer_pool.hpp).
    return pooled_host_buffer(kind, numa_os_index, bytes, [&](const HwlocTopology& own) -> std::unique_ptr<HostBuffer> {
        switch (kind) {
        case HostMemKind::Pageable: return std::make_unique<PageableHostBuffer>(own, numa_os_index, bytes);
        case HostMemKind::Pinned:
        case HostMemKind::WriteCombined: return std::make_unique<CudaHostAllocBuffer>(kind, own, numa_os_index, bytes);
        case HostMemKind::Registered: return std::make_unique<RegisteredHostBuffer>(own, numa_os_index, bytes, false);
        case HostMemKind::Huge: return std::make_unique<RegisteredHostBuffer>(own, numa_os_index, bytes, true);
        }
        throw MeasurementError("unknown host memory kind");
    });
}

}  // namespace hwcomm::cuda
