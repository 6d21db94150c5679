#pragma once
// Deliberately broken memcpy sessions: verification must catch them.
#include <algorithm>
#include <cstring>

#include "methods/cpu/memcpy_session.hpp"

namespace hwcomm::test {

// The timed copy moves nothing.
class CopiesNothing : public MemcpySession {
public:
    using MemcpySession::MemcpySession;

protected:
    void copy_part(std::byte*, const std::byte*, std::size_t, std::size_t, std::size_t) override {}
};

// The timed copy moves only the first half of each transfer.
class CopiesFirstHalf : public MemcpySession {
public:
    using MemcpySession::MemcpySession;

protected:
    void copy_part(std::byte* dst, const std::byte* src, std::size_t begin, std::size_t end, std::size_t bytes) override {
        end = std::min(end, bytes / 2);
        if (end > begin) std::memcpy(dst + begin, src + begin, end - begin);
    }
};

}  // namespace hwcomm::test
