#pragma once
// One disk-read record: a test file on one disk's filesystem read into a
// buffer bound to one NUMA node by a thread bound to that node's CPUs (the
// study's fread() on CPU1 that moves Disk0's data into CPU1's memory).
// Per sample: reset() poisons the buffer and drops the file from the page
// cache (counting what stayed), measure() times one read of the first
// `bytes` of the file, verify() checks the buffer holds the file's pattern.
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "methods/characterizer.hpp"
#include "methods/disk/page_cache.hpp"
#include "methods/disk/test_file.hpp"
#include "platform/hwloc_topology.hpp"
#include "platform/numa_buffer.hpp"
#include "platform/thread_binding.hpp"

namespace hwcomm {

enum class DiskIo {
    Buffered,  // pread through the page cache
    Direct,    // pread with O_DIRECT (page-aligned buffer, 4 KiB multiples)
    Fread,     // stdio fread with its default buffering, as the study did
};
const char* to_string(DiskIo io);
// Throws std::invalid_argument on an unknown name.
DiskIo disk_io_from(const std::string& text);

// Where the test file goes and what it is on (for the record's context).
struct DiskTarget {
    std::string disk;         // sysfs name of the whole disk ("vda")
    std::string scratch_dir;  // directory that holds the (unnamed) test file
    std::string mount_point;
    std::string fstype;
};

// The test file and the reads stay under this (the size policy's maximum).
// Every io mode's curve was flat from 256-512 MiB on the GPU machines' disks
// (docs/disk.md); the 1 GiB reads added nothing but 1.1 s per record.
inline constexpr std::size_t kDiskReadMaxBytes = std::size_t{512} << 20;
// O_DIRECT needs buffers and sizes aligned to the device's logical block;
// 4 KiB covers 512-byte and 4 KiB sectors.
inline constexpr std::size_t kDiskAlignment = 4096;

class DiskReadSession final : public TransferSession {
public:
    // Writes the test file: the smaller of max_bytes (rounded up to
    // kDiskAlignment, as the size policy rounds the sizes), kDiskReadMaxBytes
    // and half the free space of the scratch filesystem (rounded down); or
    // takes the one `files` kept from an earlier session (null: its own).
    DiskReadSession(const DiskTarget& target, int numa_node, DiskIo io, std::size_t max_bytes,
                    CacheDropPolicy policy, TestFileCache* files = nullptr);
    ~DiskReadSession() override;

    void warmup(std::size_t bytes, const std::string& variant) override;
    void reset(std::size_t bytes, const std::string& variant) override;
    Sample measure(std::size_t bytes, const std::string& variant) override;
    std::string verify(std::size_t bytes, const std::string& variant) override;
    nlohmann::json context() const override;
    std::size_t max_bytes() const override { return file_->size(); }
    // Adds a fact of the planning (the disks left out and why) to the context.
    void note(const std::string& key, nlohmann::json value) { context_[key] = std::move(value); }

private:
    void read_into_buffer(std::size_t bytes);
    int read_fd() const { return direct_fd_ >= 0 ? direct_fd_ : file_->fd(); }

    HwlocTopology topo_;
    int node_;
    DiskIo io_;
    CacheDropPolicy policy_;
    std::unique_ptr<ScopedThreadBinding> binding_;  // the reading thread on the node, for the record
    std::shared_ptr<TestFile> file_;
    int direct_fd_ = -1;  // io=direct: its own open of the file, with O_DIRECT (the file may be shared)
    std::unique_ptr<NumaBuffer> buffer_;
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream_{nullptr, &std::fclose};  // fread only
    std::uint64_t seed_;
    nlohmann::json context_ = nlohmann::json::object();
    // What reset() found, for the next sample and the record.
    std::size_t cached_at_start_ = 0;
    std::map<std::string, std::size_t> drops_by_way_;
    std::size_t drops_ = 0, drops_leaving_pages_ = 0, max_cached_after_drop_ = 0;
    std::string first_drop_error_;
};

}  // namespace hwcomm
