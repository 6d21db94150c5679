#include "discover/hwloc_loader.hpp"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "core/error.hpp"
#include "discover/hwloc_guard.hpp"

namespace hwcomm {

namespace {

// Sets an environment variable for one scope and restores the previous state:
// hwloc reads HWLOC_FSROOT / HWLOC_THISSYSTEM only from the environment.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() {
        if (old_) ::setenv(name_, old_->c_str(), 1);
        else ::unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

HwlocTopology new_topology() {
    hwloc_topology_t raw = nullptr;
    if (hwloc_topology_init(&raw) != 0) throw std::runtime_error("hwloc_topology_init failed");
    HwlocTopology topology(raw);
    // Before any load: without this, PCI bridges, PCI and OS devices vanish.
    hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_ALL);
    return topology;
}

void check_fsroot(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw UsageError("cannot read sysfs tree " + dir + ": not a directory");
    if (!fs::is_directory(fs::path(dir) / "sys", ec))
        throw UsageError(dir + " is not a saved Linux sysfs tree (no sys/ inside)");
    // Without CPUs in the tree hwloc would invent a machine (phantom packages).
    if (!fs::is_directory(fs::path(dir) / "sys/devices/system/cpu", ec))
        throw UsageError(dir + " is not a saved Linux sysfs tree (no sys/devices/system/cpu inside)");
    // hwloc reads the tree's files with plain open() and read(): a named pipe
    // would block it forever, a device (or a link to /dev/zero) feed it without
    // end. A saved tree holds directories, regular files and links to them only.
    for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        std::error_code status_ec;
        const fs::file_type type = fs::status(it->path(), status_ec).type();  // through links
        if (status_ec) continue;  // a dangling or looping link: hwloc finds nothing there
        if (type != fs::file_type::regular && type != fs::file_type::directory)
            throw UsageError("cannot read sysfs tree " + dir + ": " + it->path().lexically_relative(dir).string() +
                             " is not a regular file (a pipe, socket or device)");
    }
}

// A saved tree is another machine: only the Linux backend reads it (as
// hwloc's own tests do). The x86 backend would run CPUID on this machine's
// CPU, and the GPU backends would ask this machine's drivers.
void read_only_the_tree(hwloc_topology_t topology) {
    for (const char* live : {"x86", "pci", "nvml", "cuda", "opencl", "rsmi", "levelzero", "gl"})
        hwloc_topology_set_components(topology, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, live);
}

}  // namespace

HwlocTopology load_hwloc_topology(const std::string& xml, const std::string& fsroot) {
    if (!xml.empty() && !fsroot.empty()) throw UsageError("--input and --fsroot exclude each other");
    HwlocTopology topology = new_topology();
    if (!xml.empty()) {
        load_untrusted_xml(topology.get(), xml);  // hwloc crashes on some malformed exports
        return topology;
    }
    if (!fsroot.empty()) {
        check_fsroot(fsroot);
        const std::string absolute = std::filesystem::absolute(fsroot).string();
        ScopedEnv root("HWLOC_FSROOT", absolute);
        ScopedEnv not_this("HWLOC_THISSYSTEM", "0");
        ScopedEnv gpu_memory("HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES", "1");  // hwloc hides them on POWER otherwise
        read_only_the_tree(topology.get());
        if (hwloc_topology_load(topology.get()) != 0)
            throw UsageError("cannot load sysfs tree " + fsroot + ": " + errno_text());
        return topology;
    }
    if (hwloc_topology_load(topology.get()) != 0)
        throw std::runtime_error(std::string("hwloc cannot load this machine's topology: ") + errno_text());
    return topology;
}

}  // namespace hwcomm
