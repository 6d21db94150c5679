#include "methods/disk/disk_read_session.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "core/error.hpp"
#include "methods/cpu/pattern.hpp"
#include "platform/clock.hpp"
#include "platform/page_placement.hpp"

namespace hwcomm {

namespace {

// Fixed per file: the file is written once and never changes; the poison
// reset() writes is its complement, so every byte a read did not bring fails.
constexpr std::uint64_t kFileSeed = 0xD15C0000D15Cull;

constexpr std::size_t kWarmupBytes = std::size_t{16} << 20;  // a multiple of any O_DIRECT block

}  // namespace

const char* to_string(DiskIo io) {
    switch (io) {
        case DiskIo::Buffered: return "buffered";
        case DiskIo::Direct: return "direct";
        case DiskIo::Fread: return "fread";
    }
    return "?";
}

DiskIo disk_io_from(const std::string& text) {
    for (DiskIo io : {DiskIo::Buffered, DiskIo::Direct, DiskIo::Fread})
        if (text == to_string(io)) return io;
    throw std::invalid_argument("disk io '" + text + "': expected buffered, direct or fread");
}

DiskReadSession::DiskReadSession(const DiskTarget& target, int numa_node, DiskIo io, std::size_t max_bytes,
                                 CacheDropPolicy policy, TestFileCache* files)
    : node_(numa_node), io_(io), policy_(policy), seed_(kFileSeed) {
    if (const std::string why = scratch_problem(target.scratch_dir); !why.empty()) throw MeasurementError(why);
    // The size policy rounds the run's sizes up to 4 KiB: so does the file.
    // Capped before the file cache compares it: a record prepared for 1 GiB
    // and one prepared for 512 MiB read the same 512 MiB file (one H100 wrote
    // it twice in a default run, 0.5-0.7 s each).
    const std::uint64_t wanted = std::min<std::uint64_t>(
        (std::max<std::uint64_t>(max_bytes, 1) + kDiskAlignment - 1) / kDiskAlignment * kDiskAlignment, kDiskReadMaxBytes);
    binding_ = std::make_unique<ScopedThreadBinding>(topo_, node_);
    auto write_file = [&] {
        const std::uint64_t free = free_bytes(target.scratch_dir);
        std::size_t bytes = std::min<std::uint64_t>(wanted, free / 2);
        bytes -= bytes % kDiskAlignment;
        if (bytes < kDiskAlignment)
            throw MeasurementError("no room for a test file in " + target.scratch_dir + " (" + std::to_string(free) +
                                   " bytes free; disk-read uses at most half)");
        return std::make_shared<TestFile>(target.scratch_dir, bytes, seed_, free);
    };
    bool reused = false;
    file_ = files ? files->get(target.scratch_dir, wanted, write_file, reused) : write_file();
    const std::size_t bytes = file_->size();
    buffer_ = std::make_unique<NumaBuffer>(topo_, node_, bytes);
    if (reinterpret_cast<std::uintptr_t>(buffer_->data()) % kDiskAlignment != 0)
        throw MeasurementError("the NUMA buffer is not 4 KiB-aligned, as O_DIRECT needs");
    if (io_ == DiskIo::Fread) {
        const int dup = ::fcntl(file_->fd(), F_DUPFD_CLOEXEC, 0);
        stream_.reset(dup >= 0 ? ::fdopen(dup, "rb") : nullptr);
        if (!stream_) {
            if (dup >= 0) ::close(dup);
            throw MeasurementError("fdopen of the test file: " + errno_text());
        }
    }
    context_["disk"] = target.disk;
    context_["mount_point"] = target.mount_point;
    context_["fstype"] = target.fstype;
    context_["scratch_dir"] = target.scratch_dir;
    // The free space before the test file was written, which capped its size
    // (a reused file: as the record that wrote it found it).
    context_["scratch_free_bytes"] = file_->free_before();
    context_["io"] = to_string(io_);
    context_["test_file"] = {{"bytes", bytes}, {"created", file_->how()}, {"visible_name", false},
                             {"written_for", reused ? "an earlier record of this run (the same directory and size)"
                                                    : "this record"}};
    context_["reader"] = {{"node", node_}, {"bound", binding_->bound()}};
    if (!binding_->note().empty()) context_["reader"]["note"] = binding_->note();
    context_["dst_buffer"] = placement_to_json(buffer_->placement());
    context_["dst_buffer"]["bytes"] = buffer_->size();
    context_["placement_verified"] = buffer_->placement().verified;
    // Last: nothing after it throws, so the destructor closes it.
    if (io_ == DiskIo::Direct) {
        // A descriptor of its own: O_DIRECT on the shared one would reach the other io modes.
        const std::string self = "/proc/self/fd/" + std::to_string(file_->fd());
        direct_fd_ = ::open(self.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
        if (direct_fd_ < 0)
            throw MeasurementError(target.fstype + " at " + target.mount_point + " refuses O_DIRECT: " + errno_text());
    }
}

DiskReadSession::~DiskReadSession() {
    if (direct_fd_ >= 0) ::close(direct_fd_);
}

void DiskReadSession::read_into_buffer(std::size_t bytes) {
    char* to = reinterpret_cast<char*>(buffer_->data());
    if (io_ == DiskIo::Fread) {
        if (std::fseek(stream_.get(), 0, SEEK_SET) != 0) throw MeasurementError("fseek: " + errno_text());
        const std::size_t got = std::fread(to, 1, bytes, stream_.get());
        if (got != bytes)
            throw MeasurementError("fread returned " + std::to_string(got) + " of " + std::to_string(bytes) + " bytes");
        return;
    }
    for (std::size_t done = 0; done < bytes;) {
        const ssize_t n = ::pread(read_fd(), to + done, bytes - done, static_cast<off_t>(done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            throw MeasurementError("pread at byte " + std::to_string(done) + ": " +
                                   (n < 0 ? errno_text() : std::string("end of file")));
        done += static_cast<std::size_t>(n);
    }
}

// Every sample reads from a dropped page cache, so a warm-up only has to
// warm the read path (file and stdio state, the syscalls, the destination's
// mappings, which reset() writes anyway), not read the whole size again: the
// first 16 MiB. A whole-size warm-up was a quarter of a disk record's time at
// 256 MiB-1 GiB (one H100, e021a7c: 2 samples of 1 GiB and a warm-up read).
void DiskReadSession::warmup(std::size_t bytes, const std::string&) {
    read_into_buffer(std::min(bytes, kWarmupBytes));
}

void DiskReadSession::reset(std::size_t bytes, const std::string&) {
    poison(buffer_->data(), bytes, seed_);
    const CacheDrop drop = drop_from_page_cache(file_->fd(), bytes, policy_);
    cached_at_start_ = drop.cached_bytes;
    ++drops_;
    ++drops_by_way_[drop.way()];
    if (drop.cached_bytes > 0) ++drops_leaving_pages_;
    max_cached_after_drop_ = std::max(max_cached_after_drop_, drop.cached_bytes);
    if (!drop.error.empty() && first_drop_error_.empty()) first_drop_error_ = drop.error;
}

Sample DiskReadSession::measure(std::size_t bytes, const std::string&) {
    const double t0 = steady_seconds();
    read_into_buffer(bytes);
    const double t1 = steady_seconds();
    Sample s;
    s.seconds = t1 - t0;
    s.bytes_per_rep = static_cast<double>(bytes);
    s.metrics["cached_bytes_at_start"] = {static_cast<double>(cached_at_start_), "bytes"};
    return s;
}

std::string DiskReadSession::verify(std::size_t bytes, const std::string&) {
    return pattern_mismatch(buffer_->data(), bytes, seed_);
}

nlohmann::json DiskReadSession::context() const {
    nlohmann::json c = context_;
    nlohmann::json ways = nlohmann::json::object();
    for (const auto& [way, n] : drops_by_way_) ways[way] = n;
    c["cache_drop"] = {{"policy", to_string(policy_)},
                       {"ways", ways},
                       {"samples", drops_},
                       {"samples_with_cached_pages", drops_leaving_pages_},
                       {"max_cached_bytes_after_drop", max_cached_after_drop_}};
    if (!first_drop_error_.empty()) c["cache_drop"]["error"] = first_drop_error_;
    return c;
}

}  // namespace hwcomm
