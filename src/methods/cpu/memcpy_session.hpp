#pragma once
// The memcpy method's session, in a header so that tests can break its copy
// and show that verification catches it.
#include <cstddef>
#include <string>

#include "methods/cpu/cpu_session.hpp"

namespace hwcomm {

class MemcpySession : public CpuSession {
public:
    // One worker, or (multi) one per core of the source node capped by
    // options.max_workers; workers bound to the source node.
    MemcpySession(int src, int dst, std::size_t max_bytes, bool multi, const MethodOptions& options);
    // Checks the destination against this sample's pattern; copies nothing.
    std::string verify(std::size_t bytes, const std::string& variant) override;

protected:
    double run_timed(std::size_t bytes, const std::string& variant, std::size_t reps) override;
    void write_pattern(std::size_t bytes, std::uint64_t seed) override;
    // One worker's share of one transfer of `bytes`: bytes [begin, end).
    virtual void copy_part(std::byte* dst, const std::byte* src, std::size_t begin, std::size_t end, std::size_t bytes);

private:
    NumaBuffer src_;
    NumaBuffer dst_;
    unsigned workers_;
};

}  // namespace hwcomm
