#include "discover/hwloc_guard.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/input_file.hpp"

// Present only in sanitizer builds (the fuzz targets): the death callback
// libFuzzer sets to save a crashing input must not run in the child.
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

namespace hwcomm {

namespace {

constexpr std::size_t kMaxXmlBytes = std::size_t{256} << 20;  // real exports are a few MB
constexpr int kMaxTreeDepth = 256;                           // real trees are < 30 levels deep
enum ChildExit : int { kLoaded = 0, kHwlocFailed = 10, kInconsistent = 11 };

// An hwloc environment setting for one scope, unless the user set it:
// HWLOC_HIDE_ERRORS (read once, at hwloc's first error: "2" hides even the
// critical-error banner) and HWLOC_LIBXML_IMPORT ("0": hwloc's own XML
// parser, whether or not libhwloc-plugins, which Open MPI pulls in, adds its
// libxml2 one, so a file reads the same on every machine).
class ScopedHwlocDefault {
public:
    ScopedHwlocDefault(const char* name, const char* value) : name_(name), set_(std::getenv(name) == nullptr) {
        if (set_) ::setenv(name_, value, 1);
    }
    ~ScopedHwlocDefault() {
        if (set_) ::unsetenv(name_);
    }
    ScopedHwlocDefault(const ScopedHwlocDefault&) = delete;
    ScopedHwlocDefault& operator=(const ScopedHwlocDefault&) = delete;

private:
    const char* name_;
    bool set_;
};

bool has_sets(hwloc_obj_t o) { return o->cpuset && o->complete_cpuset && o->nodeset && o->complete_nodeset; }

// Packages and NUMA nodes become vertices "package<N>" and "numa<N>": N must be unique per type.
bool unique_indexes(hwloc_topology_t topology, hwloc_obj_type_t type) {
    std::set<unsigned> seen;
    for (hwloc_obj_t o = nullptr; (o = hwloc_get_next_obj_by_type(topology, type, o));)
        if (!seen.insert(o->os_index == HWLOC_UNKNOWN_INDEX ? o->logical_index : o->os_index).second) return false;
    return true;
}

// An enum's stored value, read without loading it as the enum type: hwloc's
// XML reader stores whatever integer the file holds (a bridge type of 2, say),
// and loading an out-of-range enum is undefined behaviour.
template <typename Enum>
long long stored_value(const Enum& field) {
    std::underlying_type_t<Enum> raw{};
    std::memcpy(&raw, &field, sizeof raw);
    return static_cast<long long>(raw);
}

// Enum attributes inside the range this hwloc defines.
bool valid_enums(hwloc_obj_t obj) {
    auto in = [](long long v, long long lo, long long hi) { return v >= lo && v <= hi; };
    if (obj->type == HWLOC_OBJ_BRIDGE)
        return in(stored_value(obj->attr->bridge.upstream_type), HWLOC_OBJ_BRIDGE_HOST, HWLOC_OBJ_BRIDGE_PCI) &&
               in(stored_value(obj->attr->bridge.downstream_type), HWLOC_OBJ_BRIDGE_HOST, HWLOC_OBJ_BRIDGE_PCI);
    if (obj->type == HWLOC_OBJ_OS_DEVICE)
        return in(stored_value(obj->attr->osdev.type), HWLOC_OBJ_OSDEV_BLOCK, HWLOC_OBJ_OSDEV_COPROC);
    if (hwloc_obj_type_is_cache(obj->type))
        return in(stored_value(obj->attr->cache.type), HWLOC_OBJ_CACHE_UNIFIED, HWLOC_OBJ_CACHE_INSTRUCTION);
    return true;
}

// The invariants our graph builder relies on, checked iteratively so a deep
// tree cannot overflow this stack.
bool consistent(hwloc_topology_t topology) {
    if (!unique_indexes(topology, HWLOC_OBJ_PACKAGE) || !unique_indexes(topology, HWLOC_OBJ_NUMANODE)) return false;
    std::vector<std::pair<hwloc_obj_t, int>> todo{{hwloc_get_root_obj(topology), 0}};
    while (!todo.empty()) {
        auto [obj, depth] = todo.back();
        todo.pop_back();
        if (depth > kMaxTreeDepth) return false;
        const bool normal = !hwloc_obj_type_is_io(obj->type) && obj->type != HWLOC_OBJ_MISC;
        if (normal && !has_sets(obj)) return false;
        if (normal && obj->parent && has_sets(obj->parent) && !hwloc_bitmap_isincluded(obj->cpuset, obj->parent->cpuset))
            return false;
        if (obj->type == HWLOC_OBJ_NUMANODE &&
            (obj->os_index == HWLOC_UNKNOWN_INDEX || !hwloc_bitmap_isset(obj->nodeset, obj->os_index)))
            return false;
        if ((obj->type == HWLOC_OBJ_PCI_DEVICE || obj->type == HWLOC_OBJ_BRIDGE) && !obj->attr) return false;
        if (obj->attr && !valid_enums(obj)) return false;
        for (hwloc_obj_t c = nullptr; (c = hwloc_get_next_child(topology, obj, c));) todo.emplace_back(c, depth + 1);
    }
    return true;
}

// hwloc's buffer length counts the final NUL, as hwloc_topology_export_xmlbuffer gives it.
bool load_buffer(hwloc_topology_t topology, const std::string& text) {
    return hwloc_topology_set_xmlbuffer(topology, text.c_str(), static_cast<int>(text.size() + 1)) == 0 &&
           hwloc_topology_load(topology) == 0;
}

[[noreturn]] void child_load(hwloc_topology_t topology, const std::string& text) {
    // The banner and any sanitizer report of a crash inside hwloc stay in the child.
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
        ::dup2(null, STDOUT_FILENO);
        ::dup2(null, STDERR_FILENO);
    }
    // The child dies by hwloc's signal: no inherited handler (a fuzzer's crash
    // report, say) treats hwloc's crash as a finding of the parent's.
    for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL}) ::signal(sig, SIG_DFL);
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(nullptr);
    if (!load_buffer(topology, text)) ::_exit(kHwlocFailed);
    hwloc_topology_check(topology);  // aborts (a refusal) where hwloc keeps its assertions
    ::_exit(consistent(topology) ? kLoaded : kInconsistent);
}

// Waits for the child at most `limit`; kills it after that. Returns the wait status, or nullopt on timeout.
std::optional<int> wait_child(pid_t pid, std::chrono::seconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    auto pause = std::chrono::microseconds(200);
    for (;;) {
        int status = 0;
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid) return status;
        if (r < 0 && errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + errno_text());
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            return std::nullopt;
        }
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(20000));
    }
}

void check_in_child(hwloc_topology_t topology, const std::string& path, const std::string& text,
                    std::chrono::seconds limit) {
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + errno_text());
    if (pid == 0) child_load(topology, text);
    const std::optional<int> status = wait_child(pid, limit);
    if (!status)
        throw UsageError(path + ": hwloc did not finish loading it within " + std::to_string(limit.count()) + " s");
    if (WIFSIGNALED(*status))
        throw UsageError(path + " is a malformed hwloc XML export (hwloc crashed loading it: " +
                         strsignal(WTERMSIG(*status)) + ")");
    switch (WEXITSTATUS(*status)) {
    case kLoaded: return;
    case kHwlocFailed: throw UsageError(path + " is not an hwloc XML export (hwloc cannot parse it)");
    case kInconsistent:
        throw UsageError(path + " is a malformed hwloc XML export (its objects break hwloc's invariants)");
    default:
        throw UsageError(path + " is a malformed hwloc XML export (hwloc failed loading it, exit " +
                         std::to_string(WEXITSTATUS(*status)) + ")");
    }
}

}  // namespace

void load_untrusted_xml(hwloc_topology_t topology, const std::string& path, std::chrono::seconds child_limit) {
    std::string text;
    try {
        text = read_regular_input_file(path, "topology file", kMaxXmlBytes);
    } catch (const UsageError& e) {
        const std::string msg = e.what();
        if (msg.ends_with(": is a directory")) throw UsageError(msg + " (use --fsroot for a sysfs tree)");
        throw;
    }
    if (text.substr(0, 4096).find("<topology") == std::string::npos)
        throw UsageError(path + " is not an hwloc XML export");
    const ScopedHwlocDefault hide("HWLOC_HIDE_ERRORS", "2");
    const ScopedHwlocDefault builtin_parser("HWLOC_LIBXML_IMPORT", "0");
    check_in_child(topology, path, text, child_limit);
    if (!load_buffer(topology, text))
        throw UsageError(path + " is not an hwloc XML export (hwloc cannot parse it)");
}

}  // namespace hwcomm
