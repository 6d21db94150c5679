#pragma once
// Dropping a file's pages from the page cache before a disk read is timed,
// and checking that they are gone. fsync + posix_fadvise(DONTNEED) evicts the
// file's clean pages and needs no privilege; writing 1 to
// /proc/sys/vm/drop_caches evicts every clean page of the system (root only,
// and it slows everything else on the machine for a while). mincore() on a
// mapping of the file then counts the pages still cached: the proof the
// next read comes from the device.
#include <cstddef>
#include <string>

namespace hwcomm {

enum class CacheDropPolicy {
    File,    // fsync + posix_fadvise(DONTNEED) on the test file
    System,  // that, then /proc/sys/vm/drop_caches (root)
};

// "file" (the default, also for ""), "system", "auto": System when running as root, else File.
// Throws std::invalid_argument on anything else.
CacheDropPolicy cache_drop_policy_from(const std::string& text);
const char* to_string(CacheDropPolicy policy);

struct CacheDrop {
    bool fadvised = false;          // fsync and posix_fadvise(DONTNEED) both succeeded
    bool drop_caches = false;       // /proc/sys/vm/drop_caches was written
    std::string error;              // what failed, "" when nothing did
    std::size_t cached_bytes = 0;   // bytes of [0, bytes) still in the page cache afterwards
    // "posix_fadvise", "posix_fadvise+drop_caches" or "none".
    std::string way() const;
};

// Drops the open file `fd` from the page cache by `policy` and counts what
// stayed of [0, bytes), the range the next sample reads.
CacheDrop drop_from_page_cache(int fd, std::size_t bytes, CacheDropPolicy policy);

// Bytes of [0, bytes) of `fd` in the page cache (mincore); throws
// MeasurementError when the file cannot be mapped.
std::size_t cached_bytes(int fd, std::size_t bytes);

}  // namespace hwcomm
