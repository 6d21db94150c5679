#include "methods/cuda/lanes/background_load.hpp"

#include <algorithm>
#include <functional>

#include "core/error.hpp"
#include "methods/cuda/common/cuda_check.hpp"
#include "methods/cuda/common/graph_queries.hpp"
#include "methods/cuda/common/kernels.hpp"
#include "methods/cuda/common/tma_kernels.hpp"

namespace hwcomm::cuda {

struct BackgroundLoad::Lane {
    LaneSpec spec;
    int device = -1;
    std::unique_ptr<Stream> stream;
    std::unique_ptr<Event> start;
    std::vector<std::unique_ptr<Event>> marks;  // a pool of kMaxLoadMarks
    std::vector<std::size_t> mark_chunks;       // chunks finished at each mark recorded this sample
    std::unique_ptr<HostBuffer> host;
    std::unique_ptr<DeviceBuffer> from, to;
    std::function<void(cudaStream_t)> copy;
    double chunk_s = 0;  // fastest seconds per chunk seen so far (0: none yet)
};

namespace {

const char* method_of(LoadDirection d, Executor e) {
    const bool ce = e == Executor::CopyEngine;
    switch (d) {
        case LoadDirection::HostToGpu: return ce ? "memcpy-h2d" : "sm-copy-h2d";
        case LoadDirection::GpuToHost: return ce ? "memcpy-d2h" : "sm-copy-d2h";
        case LoadDirection::GpuToGpu: return ce ? "memcpy-peer" : "sm-copy-d2d-push";
    }
    return "";
}

// One chunk by a kernel on the lane's GPU: the tiled copy kernel (SM) or bulk copies (TMA).
std::function<void(cudaStream_t)> kernel_chunk(Executor e, std::byte* dst, const std::byte* src, std::size_t n) {
    if (e == Executor::Tma) return [dst, src, n](cudaStream_t s) { launch_tma_copy(s, dst, src, n); };
    return [dst, src, n](cudaStream_t s) { launch_tiled_copy_kernel(s, dst, src, n); };
}

std::byte* device_view_or_throw(HostBuffer& host) {
    if (!host.device_view()) throw MeasurementError("load lane: the pinned host buffer has no device mapping");
    return host.device_view();
}

int ordinal_or_throw(const Vertex& v) {
    const int o = cuda_ordinal(v);
    if (o < 0) throw MeasurementError("load lane: " + v.id + " is not a CUDA GPU");
    return o;
}

}  // namespace

BackgroundLoad::BackgroundLoad(const std::vector<LoadRoute>& routes, int priority, Executor executor)
    : priority_(priority), executor_(executor) {
    const bool ce = executor == Executor::CopyEngine;
    for (const LoadRoute& r : routes) {
        auto lane = std::make_unique<Lane>();
        lane->spec.label = "load:" + r.label();
        lane->spec.method = method_of(r.direction, executor);
        lane->spec.src = r.src->id;
        lane->spec.dst = r.dst->id;
        lane->spec.params = {{"chunk_bytes", std::to_string(kLoadChunkBytes)}, {"spec", r.spec}};
        if (!ce) lane->spec.params["mode"] = to_string(executor);
        if (priority != 0) lane->spec.params["stream_priority"] = std::to_string(priority);
        lane->spec.role = "load";
        const std::size_t n = kLoadChunkBytes;
        Lane& l = *lane;
        if (r.direction == LoadDirection::HostToGpu) {
            l.device = ordinal_or_throw(*r.dst);
            l.host = make_host_buffer(HostMemKind::Pinned, topo_, r.src->os_index, n);
            l.to = std::make_unique<DeviceBuffer>(l.device, n);
            l.copy = ce ? std::function<void(cudaStream_t)>([&l, n](cudaStream_t s) {
                HWCOMM_CUDA_CHECK(cudaMemcpyAsync(l.to->data(), l.host->data(), n, cudaMemcpyHostToDevice, s));
            })
                        : kernel_chunk(executor, l.to->data(), device_view_or_throw(*l.host), n);
        } else if (r.direction == LoadDirection::GpuToHost) {
            l.device = ordinal_or_throw(*r.src);
            l.from = std::make_unique<DeviceBuffer>(l.device, n);
            l.host = make_host_buffer(HostMemKind::Pinned, topo_, r.dst->os_index, n);
            l.copy = ce ? std::function<void(cudaStream_t)>([&l, n](cudaStream_t s) {
                HWCOMM_CUDA_CHECK(cudaMemcpyAsync(l.host->data(), l.from->data(), n, cudaMemcpyDeviceToHost, s));
            })
                        : kernel_chunk(executor, device_view_or_throw(*l.host), l.from->data(), n);
        } else {
            const int a = ordinal_or_throw(*r.src);
            const int b = ordinal_or_throw(*r.dst);
            l.device = a;  // the writer queues it, as all-to-one does
            if (a == b) {
                l.spec.method = ce ? "memcpy-d2d" : "sm-copy-d2d";  // within one GPU: its memory is the load
            } else {
                try {
                    peers_.push_back(std::make_unique<PeerSetup>(a, b, true));
                } catch (const MeasurementError&) {
                    // The copy engines stage through host memory; a kernel cannot reach the peer at all.
                    if (!ce) throw;
                    l.spec.params["peer"] = "off: the driver refused peer access";
                }
            }
            l.from = std::make_unique<DeviceBuffer>(a, n);
            l.to = std::make_unique<DeviceBuffer>(b, n);
            l.copy = ce ? std::function<void(cudaStream_t)>([&l, a, b, n](cudaStream_t s) {
                HWCOMM_CUDA_CHECK(cudaMemcpyPeerAsync(l.to->data(), b, l.from->data(), a, n, s));
            })
                        : kernel_chunk(executor, l.to->data(), l.from->data(), n);
        }
        l.stream = priority != 0 ? std::make_unique<Stream>(l.device, priority) : std::make_unique<Stream>(l.device);
        l.start = std::make_unique<Event>(l.device);
        for (std::size_t m = 0; m < kMaxLoadMarks; ++m) l.marks.push_back(std::make_unique<Event>(l.device));
        lanes_.push_back(std::move(lane));
    }
    active_ = lanes_.size();
}

BackgroundLoad::~BackgroundLoad() { drain_noexcept(); }

std::vector<LaneSpec> BackgroundLoad::specs() const {
    std::vector<LaneSpec> out;
    for (std::size_t i = 0; i < active_; ++i) out.push_back(lanes_[i]->spec);
    return out;
}

void BackgroundLoad::hold(BlockingGate& gate) {
    for (std::size_t i = 0; i < active_; ++i) gate.hold(*lanes_[i]->stream);
}

void BackgroundLoad::enqueue(double window_estimate_s) {
    for (std::size_t i = 0; i < active_; ++i) {
        Lane& l = *lanes_[i];
        ScopedDevice on(l.device);
        // Unknown yet: assume a fast link (500 GB/s), which over-plans the chunks.
        const double chunk_s = l.chunk_s > 0 ? l.chunk_s : static_cast<double>(kLoadChunkBytes) / 500e9;
        const std::size_t n = window_estimate_s > 0 ? load_chunks_for(window_estimate_s, chunk_s, cover_factor_)
                                                    : kMaxLoadChunks;
        const std::size_t stride = (n + kMaxLoadMarks - 1) / kMaxLoadMarks;
        l.mark_chunks.clear();
        l.start->record(*l.stream);
        for (std::size_t c = 1; c <= n; ++c) {
            l.copy(l.stream->get());
            if (c % stride == 0 || c == n) {
                l.marks.at(l.mark_chunks.size())->record(*l.stream);
                l.mark_chunks.push_back(c);
            }
        }
    }
}

void BackgroundLoad::drain_noexcept() noexcept {
    for (auto& l : lanes_)
        if (l->stream) l->stream->synchronize_noexcept();
}

void BackgroundLoad::account(double window_s, std::size_t reps, Sample& sample) {
    covered_ = true;
    double bytes = 0, longest = 0;
    for (std::size_t i = 0; i < active_; ++i) {
        Lane& l = *lanes_[i];
        if (l.mark_chunks.empty()) continue;
        l.marks.at(l.mark_chunks.size() - 1)->synchronize();
        std::vector<LoadMark> marks;
        for (std::size_t m = 0; m < l.mark_chunks.size(); ++m)
            marks.push_back({l.mark_chunks[m], l.marks[m]->seconds_since(*l.start)});
        const LoadInWindow in = load_in_window(marks, window_s);
        covered_ = covered_ && in.covered;
        const double per_chunk = marks.back().seconds / static_cast<double>(marks.back().chunks);
        if (per_chunk > 0 && (l.chunk_s <= 0 || per_chunk < l.chunk_s)) l.chunk_s = per_chunk;
        const double chunk = static_cast<double>(kLoadChunkBytes);
        // The unit of a load lane's point is one chunk: its median time per chunk inside the window.
        const double seconds = in.chunks ? in.seconds / static_cast<double>(in.chunks) * static_cast<double>(reps) : 0;
        sample.lanes.push_back({l.spec.label, seconds, chunk});
        bytes += chunk * static_cast<double>(in.chunks);
        longest = std::max(longest, in.seconds);
    }
    sample.extras["load_lanes"] = static_cast<double>(active_);
    sample.extras["load_covered"] = covered_ ? 1 : 0;
    if (longest > 0) sample.extras["load_gbps"] = bytes / longest / 1e9;
}

nlohmann::json BackgroundLoad::context() const {
    nlohmann::json lanes = nlohmann::json::array();
    for (std::size_t i = 0; i < active_; ++i) lanes.push_back(lanes_[i]->spec.label);
    return {{"lanes", lanes},
            {"chunk_bytes", kLoadChunkBytes},
            {"stream_priority", priority_},
            {"copy", describe(executor_) + (executor_ == Executor::Sm ? " (one block per 16 KiB tile)" : "")},
            {"how", "each load lane copies chunks back to back from the measured lanes' common release until after "
                    "the measured window closes; its bandwidth is the bytes of the chunks that finished inside the "
                    "window over the time they took (marks every few chunks, on the lane's own GPU clock). Extras: "
                    "load_gbps (all load lanes), load_covered (1 when every load lane outlasted the window)"}};
}

}  // namespace hwcomm::cuda
