#pragma once
// Which filesystems live on which disk: the mount table (/proc/self/mountinfo)
// joined with sysfs (/sys/dev/block/MAJ:MIN), so that a mount on a partition
// (nvme0n1p2), a device-mapper or md volume (dm-0 -> its slaves) is traced to
// the whole disks hwloc names ("vda", "nvme0n1": the topology's disk:NAME
// vertices). Reads files only; the roots are parameters so tests use a fake tree.
#include <string>
#include <vector>

namespace hwcomm {

struct Mount {
    unsigned major = 0, minor = 0;  // st_dev of files on it
    std::string mount_point;        // unescaped ("\040" -> ' ')
    std::string fstype;             // "ext4", "xfs", "tmpfs"
    std::string source;             // "/dev/vda", "tmpfs"
    bool read_only = false;         // "ro" in the mount's or the superblock's options
};

// Parses mountinfo text (proc(5)); malformed lines are skipped.
std::vector<Mount> parse_mountinfo(const std::string& text);
// The calling process's mount table; empty when it cannot be read.
std::vector<Mount> read_mount_table(const std::string& mountinfo_path = "/proc/self/mountinfo");

// The whole disks under block device MAJ:MIN (itself when it is a disk, the
// parent of a partition, the disks under a dm/md volume), by sysfs name.
// Empty when sysfs has no block device of that number (tmpfs, overlay, nfs).
std::vector<std::string> whole_disks_of(unsigned major, unsigned minor, const std::string& sysfs_root = "/sys");

// whole_disks_of a mount, trying its source's device number when its own
// number is anonymous (btrfs subvolumes report 0:NN).
std::vector<std::string> whole_disks_of_mount(const Mount& mount, const std::string& sysfs_root = "/sys");

// The mounts whose filesystem lives (at least partly) on the whole disk `disk`.
std::vector<Mount> mounts_on_disk(const std::vector<Mount>& table, const std::string& disk,
                                  const std::string& sysfs_root = "/sys");

// The mount holding `path` (its device number, the deepest mount point on
// ties: bind mounts); nullptr when none matches.
const Mount* mount_of_path(const std::vector<Mount>& table, const std::string& path);

}  // namespace hwcomm
