#pragma once
// Per-sample data patterns of the CPU methods. Every sample gets its own seed,
// so a destination that still holds an earlier sample's bytes (or the
// warm-up's) fails the check: only the timed batch can have put them there.
// Word i of seed s is (i ^ s*M) + K (x86 and Arm store it little-endian):
// every word differs from the same word of any other seed, and neighbouring
// words differ from each other, so a copy that moved nothing, half, or the
// wrong half is caught. Not the CUDA
// methods' splitmix pattern (methods/cuda/common/pattern.hpp): cpu-write computes its
// words inside the timed loop, where this word costs an xor and an add and
// keeps the loop bound by memory, not by 64-bit multiplies.
#include <cstddef>
#include <cstdint>
#include <string>

#include "methods/cpu/stream_kernels.hpp"
#include "platform/parallel_chunks.hpp"

namespace hwcomm {

// Fills and checks of at least this many bytes run on several threads (the
// session's team, else short-lived ones); below, one thread is quicker than
// starting several. The pattern functions below, cpu-triad and
// cpu-bandwidth-mix share it.
inline constexpr std::size_t kParallelFillBytes = std::size_t{4} << 20;

inline constexpr std::uint64_t kPatternAdd = 0x9E3779B97F4A7C15ull;
inline std::uint64_t pattern_mask(std::uint64_t seed) { return seed * 0xD1B54A32D192ED03ull; }
inline std::uint64_t pattern_word(std::uint64_t mask, std::size_t i) {
    return (static_cast<std::uint64_t>(i) ^ mask) + kPatternAdd;
}
// Byte b of the pattern, as a little-endian store of its word puts it: the
// pattern of a prefix is the prefix of the pattern, whatever the size.
inline std::byte pattern_byte(std::uint64_t mask, std::size_t b) {
    return static_cast<std::byte>(pattern_word(mask, b / 8) >> (8 * (b % 8)));
}

// Writes the pattern of `seed` into data[0, bytes) and returns its sum as the
// cpu-read kernel computes it (8-byte words, then each trailing byte as a
// number, modulo 2^64). Above a few MiB, on the `team` when given, else on
// short-lived threads (platform/parallel_chunks.hpp): fills are untimed but
// add to the run time. The same for the checks below.
// Stores::NonTemporal writes the words with the best kernels' streaming
// stores (none of the buffer left in the caches, no dirty line for the next
// timed pass to write back) and takes the sum from pattern_sum.
std::uint64_t fill_pattern(std::byte* data, std::size_t bytes, std::uint64_t seed, Stores stores = Stores::Plain,
                           const ChunkTeam* team = nullptr);
// Sum of pattern words [begin, end) of `seed` modulo 2^64, in closed form
// (bit by bit: how many indices of the range have each bit set).
std::uint64_t pattern_sum(std::uint64_t seed, std::uint64_t begin, std::uint64_t end);
// Offset of the first byte of data[0, bytes) that differs from the pattern of
// `seed`; `bytes` when all match.
std::size_t first_mismatch(const std::byte* data, std::size_t bytes, std::uint64_t seed, const ChunkTeam* team = nullptr);
// "" when data[0, bytes) holds the pattern of `seed`, else which byte does not.
std::string pattern_mismatch(const std::byte* data, std::size_t bytes, std::uint64_t seed,
                             const ChunkTeam* team = nullptr);
// Writes the complement of the pattern of `seed`: every byte differs from
// what the transfer must bring, so a byte not moved never passes the check.
void poison(std::byte* data, std::size_t bytes, std::uint64_t seed, const ChunkTeam* team = nullptr);
// Sum of data[0, bytes) as 8-byte words plus trailing bytes (the read kernel's sum).
std::uint64_t reference_sum(const std::byte* data, std::size_t bytes, const ChunkTeam* team = nullptr);

}  // namespace hwcomm
