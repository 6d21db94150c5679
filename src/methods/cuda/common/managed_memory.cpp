#include "methods/cuda/common/managed_memory.hpp"

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/cuda_handles.hpp"
#include "platform/page_placement.hpp"
#include "methods/cuda/common/device_info.hpp"

namespace hwcomm::cuda {

namespace {

// For the record only: an attribute this driver does not know is null, not an error.
nlohmann::json attribute_or_null(cudaDeviceAttr attr, int ordinal) {
    int value = 0;
    if (cudaDeviceGetAttribute(&value, attr, ordinal) != cudaSuccess) {
        (void)cudaGetLastError();
        return nullptr;
    }
    return value;
}

}  // namespace

ManagedBuffer::ManagedBuffer(std::size_t bytes) : bytes_(bytes) {
    void* p = nullptr;
    HWCOMM_CUDA_CHECK(cudaMallocManaged(&p, bytes == 0 ? 1 : bytes, cudaMemAttachGlobal));
    data_ = static_cast<std::byte*>(p);
}

ManagedBuffer::~ManagedBuffer() {
    if (data_) HWCOMM_CUDA_WARN(cudaFree(data_));
}

PageHome gpu_home(int ordinal) {
    PageHome h;
    h.location.type = cudaMemLocationTypeDevice;
    h.location.id = ordinal;
    h.name = "gpu" + std::to_string(ordinal);
    return h;
}

PageHome host_home(int numa, const ManagedBuffer& probe) {
    PageHome h;
    h.numa = numa;
    h.location.type = cudaMemLocationTypeHostNuma;
    h.location.id = numa;
    h.name = "host numa " + std::to_string(numa);
    // A one-page prefetch tells whether the driver takes a NUMA location.
    cudaError_t err = cudaMemPrefetchAsync(probe.data(), 1, h.location, 0, nullptr);
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err == cudaSuccess) return h;
    (void)cudaGetLastError();
    h.location.type = cudaMemLocationTypeHost;
    h.location.id = 0;
    h.name = "host (numa " + std::to_string(numa) + " refused: " + std::string(cudaGetErrorName(err)) + ")";
    return h;
}

void prefetch(const ManagedBuffer& buffer, std::size_t bytes, const PageHome& to, cudaStream_t stream) {
    if (bytes == 0) return;
    HWCOMM_CUDA_CHECK(cudaMemPrefetchAsync(buffer.data(), bytes, to.location, 0, stream));
}

void place_pattern(const ManagedBuffer& buffer, std::size_t bytes, std::uint64_t seed, int filler,
                   const PageHome& home, PatternOps& patterns, const Stream& stream) {
    ScopedDevice on(stream.device());
    const PageHome at_filler = gpu_home(filler);
    prefetch(buffer, bytes, at_filler, stream.get());
    stream.synchronize();
    patterns.fill(BufferRef{nullptr, buffer.data(), filler, false}, bytes, seed, false);
    const bool home_is_filler = home.location.type == cudaMemLocationTypeDevice && home.location.id == filler;
    if (!home_is_filler) prefetch(buffer, bytes, home, stream.get());
    stream.synchronize();
}

nlohmann::json managed_attributes(int ordinal) {
    auto a = [ordinal](cudaDeviceAttr attr) { return attribute_or_null(attr, ordinal); };
    return {{"managed_memory", a(cudaDevAttrManagedMemory)},
            {"concurrent_managed_access", a(cudaDevAttrConcurrentManagedAccess)},
            {"pageable_memory_access", a(cudaDevAttrPageableMemoryAccess)},
            {"pageable_memory_access_uses_host_page_tables", a(cudaDevAttrPageableMemoryAccessUsesHostPageTables)},
            {"direct_managed_mem_access_from_host", a(cudaDevAttrDirectManagedMemAccessFromHost)},
            {"host_native_atomic_supported", a(cudaDevAttrHostNativeAtomicSupported)},
            {"can_use_host_pointer_for_registered_mem", a(cudaDevAttrCanUseHostPointerForRegisteredMem)},
            {"host_numa_id", a(cudaDevAttrHostNumaId)}};
}

std::string why_no_managed_support(int ordinal) {
    if (!device_attribute(cudaDevAttrManagedMemory, ordinal))
        return "gpu" + std::to_string(ordinal) + " cannot allocate managed memory (cudaDevAttrManagedMemory = 0)";
    // Without concurrent access the CPU may not touch managed memory while any
    // kernel runs and pages do not migrate on GPU faults: nothing to measure.
    if (!device_attribute(cudaDevAttrConcurrentManagedAccess, ordinal))
        return "gpu" + std::to_string(ordinal) +
               " has no concurrent managed access (cudaDevAttrConcurrentManagedAccess = 0): pages do not migrate "
               "on demand";
    return {};
}

nlohmann::json managed_context(const std::vector<int>& ordinals) {
    nlohmann::json j;
    j["page_size_bytes"] = page_size();
    j["advice"] = "none (no cudaMemAdvise): the driver's default migration policy";
    j["gpus"] = nlohmann::json::object();
    for (int o : ordinals) j["gpus"]["gpu" + std::to_string(o)] = managed_attributes(o);
    if (ordinals.size() == 2 && ordinals[0] != ordinals[1])
        j["peer_capable"] = {{"a_to_b", can_access_peer(ordinals[0], ordinals[1])},
                             {"b_to_a", can_access_peer(ordinals[1], ordinals[0])}};
    return j;
}

}  // namespace hwcomm::cuda
