#include "discover/hwloc_loader.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "core/error.hpp"

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

// Checks the file before handing it to hwloc so the message names the real problem.
void check_xml_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int err = errno;
        throw UsageError("cannot read topology file " + path + ": " +
                         (err ? std::strerror(err) : "cannot open"));
    }
    if (std::filesystem::is_directory(path))
        throw UsageError("cannot read topology file " + path + ": is a directory (use --fsroot for a sysfs tree)");
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    if (head.find("<topology") == std::string::npos) throw UsageError(path + " is not an hwloc XML export");
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
        check_xml_file(xml);
        if (hwloc_topology_set_xml(topology.get(), xml.c_str()) != 0 || hwloc_topology_load(topology.get()) != 0)
            throw UsageError(xml + " is not an hwloc XML export (hwloc cannot parse it)");
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
            throw UsageError("cannot load sysfs tree " + fsroot + ": " + std::strerror(errno));
        return topology;
    }
    if (hwloc_topology_load(topology.get()) != 0)
        throw std::runtime_error(std::string("hwloc cannot load this machine's topology: ") + std::strerror(errno));
    return topology;
}

}  // namespace hwcomm
