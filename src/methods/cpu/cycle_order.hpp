#pragma once
// The visiting order of a pointer chase: a keyed pseudo-random bijection of
// [0, n) that any thread can evaluate at any position, so the chain of a
// 1 GiB working set is laid out by every core at once instead of by one
// thread shuffling a 64 MiB index array (on the one-H100 host that shuffle
// and the links behind it were 0.3-0.7 s of each cpu-latency point from
// 64 MiB up, all untimed). A four-round Feistel network over the smallest
// even number of bits holding n, walked until it lands below n (cycle
// walking: a permutation of the larger domain restricted to [0, n); the
// domain is below 4n, so at most four rounds of the network on average). Neighbouring positions land on
// unrelated lines, as with a shuffle: on the development VM a chase in this
// order read the same ns per load as one in a Fisher-Yates order from 8 MiB
// to 1 GiB (within 0.1%).
#include <cstdint>

namespace hwcomm {

class CycleOrder {
public:
    // n >= 1 positions; the seed picks the permutation.
    CycleOrder(std::uint64_t n, std::uint64_t seed);
    // The line visited at position k, for k in [0, n): every line exactly once.
    std::uint64_t operator()(std::uint64_t k) const {
        std::uint64_t x = k;
        do x = network(x);
        while (x >= n_);
        return x;
    }
    std::uint64_t size() const { return n_; }

private:
    std::uint64_t network(std::uint64_t x) const {
        std::uint64_t left = x >> half_bits_, right = x & half_mask_;
        for (std::uint64_t key : keys_) {
            const std::uint64_t next = left ^ (round(right ^ key) & half_mask_);
            left = right;
            right = next;
        }
        return (left << half_bits_) | right;
    }
    // A multiply-xorshift mix: every input bit reaches the low bits kept.
    static std::uint64_t round(std::uint64_t x) {
        x *= 0xD6E8FEB86659FD93ull;
        x ^= x >> 32;
        x *= 0xD6E8FEB86659FD93ull;
        return x ^ (x >> 32);
    }

    std::uint64_t n_;
    unsigned half_bits_;
    std::uint64_t half_mask_;
    std::uint64_t keys_[4];
};

}  // namespace hwcomm
