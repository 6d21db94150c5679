#include "run/cluster/pair_schedule.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>

#include "core/mix64.hpp"

namespace hwcomm {

namespace {

// Circle method: node 0 (or the dummy for odd n) stays put, the others rotate.
std::vector<std::vector<NodePair>> all_pairs_rounds(int nodes) {
    const int n = nodes % 2 == 0 ? nodes : nodes + 1;  // n-1 is the dummy for odd counts
    std::vector<std::vector<NodePair>> rounds;
    std::vector<int> ring(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) ring[static_cast<std::size_t>(i)] = i;
    for (int r = 0; r < n - 1; ++r) {
        std::vector<NodePair> round;
        for (int i = 0; i < n / 2; ++i) {
            const int a = ring[static_cast<std::size_t>(i)], b = ring[static_cast<std::size_t>(n - 1 - i)];
            if (a < nodes && b < nodes) round.emplace_back(std::min(a, b), std::max(a, b));
        }
        std::sort(round.begin(), round.end());
        if (!round.empty()) rounds.push_back(std::move(round));
        std::rotate(ring.begin() + 1, ring.end() - 1, ring.end());  // keep ring[0], rotate the rest by one
    }
    return rounds;
}

std::set<NodePair> ring_and_random_pairs(int nodes, const ScheduleOptions& options) {
    std::set<NodePair> pairs;
    const auto add = [&pairs](int a, int b) {
        if (a != b) pairs.emplace(std::min(a, b), std::max(a, b));
    };
    for (int i = 0; i < nodes; ++i) add(i, (i + 1) % nodes);
    // splitmix64: the same numbers on every compiler and library (std::
    // distributions are not specified bit for bit).
    std::uint64_t state = options.seed;
    for (int i = 0; i < nodes; ++i)
        for (int k = 0; k < options.random_partners; ++k) {
            // A partner other than i and its ring neighbours when there is one.
            for (int attempt = 0; attempt < 8; ++attempt) {
                const int j = static_cast<int>(splitmix64_next(state) % static_cast<std::uint64_t>(nodes));
                if (j == i || pairs.count({std::min(i, j), std::max(i, j)})) continue;
                add(i, j);
                break;
            }
        }
    return pairs;
}

// Greedy packing into rounds of disjoint pairs: each round takes, in order,
// every pair left whose nodes are both still free. A node's "busy" mark is
// the round that took it, so a round costs one pass over the pairs left
// (a million nodes: a few passes over a few million pairs).
std::vector<std::vector<NodePair>> pack_rounds(const std::set<NodePair>& pairs, int nodes) {
    std::vector<NodePair> left(pairs.begin(), pairs.end());
    std::vector<std::size_t> taken_in(static_cast<std::size_t>(nodes), SIZE_MAX);
    std::vector<std::vector<NodePair>> rounds;
    while (!left.empty()) {
        const std::size_t r = rounds.size();
        std::vector<NodePair> round, rest;
        for (const NodePair& p : left) {
            auto& a = taken_in[static_cast<std::size_t>(p.first)];
            auto& b = taken_in[static_cast<std::size_t>(p.second)];
            if (a != r && b != r) {
                a = b = r;
                round.push_back(p);
            } else {
                rest.push_back(p);
            }
        }
        rounds.push_back(std::move(round));
        left.swap(rest);
    }
    return rounds;
}

}  // namespace

std::size_t PairSchedule::pair_count() const {
    std::size_t n = 0;
    for (const auto& r : rounds) n += r.size();
    return n;
}

int PairSchedule::partner_of(std::size_t round, int rank) const {
    if (round >= rounds.size()) return -1;
    for (const NodePair& p : rounds[round]) {
        if (p.first == rank) return p.second;
        if (p.second == rank) return p.first;
    }
    return -1;
}

PairSchedule make_pair_schedule(int nodes, const ScheduleOptions& options) {
    if (nodes < 1) throw std::invalid_argument("a cluster schedule needs at least one node");
    if (options.all_pairs_max_nodes < 0 || options.random_partners < 0)
        throw std::invalid_argument("schedule options must not be negative");
    PairSchedule s;
    if (nodes <= options.all_pairs_max_nodes) {
        s.kind = "all-pairs";
        s.rounds = all_pairs_rounds(nodes);
    } else {
        s.kind = "ring+random";
        s.rounds = pack_rounds(ring_and_random_pairs(nodes, options), nodes);
    }
    return s;
}

double estimate_schedule_seconds(const PairSchedule& schedule, std::size_t records_per_pair, std::size_t sizes,
                                 double time_budget_s) {
    constexpr double kOverheadPerSizeS = 0.02;  // warm-up, barriers, verification
    return static_cast<double>(schedule.rounds.size() * records_per_pair * sizes) * (time_budget_s + kOverheadPerSizeS);
}

}  // namespace hwcomm
