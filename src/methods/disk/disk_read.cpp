// disk-read: for every disk vertex (disk:NAME, hwloc's block devices) with a
// mounted, writable filesystem, read a test file on it into each NUMA node,
// three ways (parameter io): pread buffered, pread O_DIRECT, and stdio fread.
// Which disk a filesystem lives on comes from the mount table and sysfs
// (discover/mount_table.hpp), asked when the run is planned.
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "core/error.hpp"
#include "discover/mount_table.hpp"
#include "methods/cpu/numa_pair_method.hpp"
#include "methods/disk/disk_read_session.hpp"
#include "methods/disk/register.hpp"

namespace hwcomm {

namespace {

// The sysfs name of a disk vertex: hwloc's OS device name, which discovery
// keeps as the vertex name (the id may carry a suffix when names repeat).
std::string disk_name(const Vertex& v) { return v.name.empty() ? v.id.substr(v.id.find(':') + 1) : v.name; }

std::vector<Mount> writable_mounts(const std::string& disk) {
    std::vector<Mount> out;
    for (Mount& m : mounts_on_disk(read_mount_table(), disk))
        if (!m.read_only) out.push_back(std::move(m));
    return out;
}

bool same_mount(const Mount* a, const Mount& b) {
    return a && a->major == b.major && a->minor == b.minor && a->mount_point == b.mount_point;
}

// A directory this user can put the test file in, on one of the disk's
// writable filesystems: the usual temporary directories when they live
// there, else the mount point, else its tmp/. Empty when none takes a file.
DiskTarget default_target(const std::string& disk, const std::vector<Mount>& mounts) {
    const auto table = read_mount_table();
    std::vector<std::string> bases;
    if (const char* t = std::getenv("TMPDIR"); t && *t) bases.emplace_back(t);
    bases.insert(bases.end(), {"/var/tmp", "/tmp"});
    for (const Mount& m : mounts) {
        std::vector<std::string> dirs;
        for (const auto& b : bases)
            if (same_mount(mount_of_path(table, b), m)) dirs.push_back(b);
        dirs.push_back(m.mount_point);
        dirs.push_back(m.mount_point + (m.mount_point == "/" ? "" : "/") + "tmp");
        for (const auto& d : dirs)
            if (same_mount(mount_of_path(table, d), m) && scratch_problem(d).empty())
                return {disk, d, m.mount_point, m.fstype};
    }
    return {disk, "", "", ""};
}

class DiskReadMethod final : public Characterizer {
public:
    std::string name() const override { return "disk-read"; }
    std::string description() const override {
        return "a thread bound to the NUMA node reads a test file on the disk's filesystem into a buffer on that "
               "node, page cache dropped before every sample; io=buffered (pread), direct (O_DIRECT), fread (stdio)";
    }
    std::vector<VertexKind> src_kinds() const override { return {VertexKind::BlockDevice}; }
    std::vector<VertexKind> dst_kinds() const override { return {VertexKind::NumaNode}; }

    Applicability applicable(const Graph& graph, const Vertex& src, const Vertex& dst) const override {
        if (src.kind != VertexKind::BlockDevice) return Applicability::no(src.id + " is not a disk");
        if (dst.kind != VertexKind::NumaNode || dst.os_index < 0) return Applicability::no(dst.id + " is not a NUMA node");
        if (dst.numa && dst.numa->cores == 0 && dst.numa->pus.empty())
            return Applicability::no(dst.id + " has no CPU to run the reading thread");
        if (const auto it = graph.provenance.find("source"); it != graph.provenance.end() && it->second != "live")
            return Applicability::no("the graph comes from " + it->second + ": its mounts are not this machine's");
        const std::string disk = disk_name(src);
        std::error_code ec;
        if (!std::filesystem::exists("/sys/class/block/" + disk, ec))
            return Applicability::no("no block device " + disk + " in /sys/class/block");
        const auto mounts = mounts_on_disk(read_mount_table(), disk);
        if (mounts.empty()) return Applicability::no("no mounted filesystem on " + disk);
        if (writable_mounts(disk).empty())
            return Applicability::no("only read-only filesystems on " + disk + " (" + mounts.front().mount_point + ")");
        return Applicability::yes();
    }

    std::vector<ParamSet> parameter_sets(const Graph&, const Vertex& src, const Vertex&,
                                         const MethodOptions& options) const override {
        if (options.values.has("scratch")) {
            // Checked while planning, before anything is written: a bad --scratch is a usage error.
            const std::string dir = options.values.string_or("scratch", "");
            if (const std::string why = scratch_problem(dir); !why.empty()) throw UsageError("--scratch: " + why);
            const auto table = read_mount_table();
            const Mount* m = mount_of_path(table, dir);
            const auto disks = m ? whole_disks_of_mount(*m) : std::vector<std::string>{};
            if (disks.empty())
                throw UsageError("--scratch " + dir + ": on " + (m ? m->fstype : std::string("an unknown filesystem")) +
                                 ", not on a disk");
            if (std::find(disks.begin(), disks.end(), disk_name(src)) == disks.end()) return {};  // another disk's
        }
        return {{{"io", "buffered"}}, {{"io", "direct"}}, {{"io", "fread"}}};
    }

    std::map<std::string, std::string> parameter_docs() const override {
        return {{"io", "buffered: pread through the page cache; direct: pread with O_DIRECT; fread: stdio fread"}};
    }

    std::vector<OptionSpec> options() const override {
        return {{"scratch", OptionType::String, "",
                 "disk-read: directory for the test file (default: a temporary directory on each disk's filesystem); "
                 "only the disk holding it is measured",
                 {}},
                {"cache-drop", OptionType::String, "file",
                 "disk-read: how the page cache is dropped before each sample: file (fsync + posix_fadvise on the "
                 "test file, the default), system (also /proc/sys/vm/drop_caches, root: every cached page of the "
                 "machine, the filesystem's metadata too), auto (system when root)",
                 {"auto", "file", "system"}}};
    }

    SizePolicy size_policy() const override { return {kDiskAlignment, kDiskAlignment, kDiskReadMaxBytes, 0}; }

    std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                             const ParamSet& params, std::size_t max_bytes,
                                             const MethodOptions& options) const override {
        const std::string disk = disk_name(src);
        const auto mounts = writable_mounts(disk);
        DiskTarget target = default_target(disk, mounts);
        if (options.values.has("scratch")) {
            const std::string dir = options.values.string_or("scratch", "");
            const auto table = read_mount_table();
            const Mount* m = mount_of_path(table, dir);
            target = {disk, dir, m ? m->mount_point : "", m ? m->fstype : ""};
        }
        if (target.scratch_dir.empty())
            throw MeasurementError("no directory on " + disk + "'s writable filesystems takes a file for this user; "
                                   "give --scratch DIR");
        const auto io = params.count("io") ? disk_io_from(params.at("io")) : DiskIo::Buffered;
        const auto policy = cache_drop_policy_from(options.values.string_or("cache-drop", "file"));
        auto session = std::make_unique<DiskReadSession>(target, numa_index_of(dst), io, max_bytes, policy, &files_);
        // The disks this run cannot measure, with the reason, kept with every record.
        nlohmann::json skipped = nlohmann::json::array();
        for (const Vertex* other : graph.of_kind(VertexKind::BlockDevice))
            if (const Applicability a = applicable(graph, *other, dst); !a.ok)
                skipped.push_back({{"disk", other->id}, {"reason", a.reason}});
        session->note("disks_skipped", std::move(skipped));
        return session;
    }

private:
    mutable TestFileCache files_;  // the io modes of one disk and node read one test file
};

}  // namespace

void register_disk_methods(Registry& registry) { registry.add(std::make_unique<DiskReadMethod>()); }

}  // namespace hwcomm
