#include "platform/node_touch.hpp"

#include <algorithm>
#include <thread>
#include <vector>

#include "platform/page_placement.hpp"
#include "platform/thread_binding.hpp"

namespace hwcomm {

namespace {

constexpr std::size_t kParallelBytes = std::size_t{64} << 20;
constexpr unsigned kMaxThreads = 16;

}  // namespace

void touch_pages_on_node(const HwlocTopology& topo, int numa, std::byte* data, std::size_t bytes) {
    const unsigned threads = bytes < kParallelBytes ? 1u : std::clamp(topo.cores_of_numa(numa), 1u, kMaxThreads);
    if (threads == 1) {
        touch_pages(data, bytes);
        return;
    }
    const std::size_t page = page_size();
    const std::size_t pages = (bytes + page - 1) / page;
    const auto chunk = [&](unsigned t) {
        const std::size_t begin = pages * t / threads * page;
        return std::pair{begin, std::min(bytes, pages * (t + 1) / threads * page)};
    };
    std::vector<char> done(threads, 0);  // char, not bool: each thread writes its own element
    std::vector<std::thread> team;
    team.reserve(threads);
    for (unsigned t = 0; t < threads; ++t)
        team.emplace_back([&, t] {
            const ScopedThreadBinding bind(topo, numa);
            if (!bind.bound()) return;
            const auto [begin, end] = chunk(t);
            if (end > begin) touch_pages(data + begin, end - begin);
            done[t] = 1;
        });
    for (auto& th : team) th.join();
    for (unsigned t = 0; t < threads; ++t)
        if (!done[t]) {
            const auto [begin, end] = chunk(t);
            if (end > begin) touch_pages(data + begin, end - begin);
        }
}

}  // namespace hwcomm
