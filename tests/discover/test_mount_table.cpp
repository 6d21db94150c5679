// The mount table joined with sysfs: which whole disk each filesystem is on.
// sysfs is a fake tree made here (symlinks as the kernel lays them out).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "discover/mount_table.hpp"

using namespace hwcomm;
namespace fs = std::filesystem;

namespace {

// A mountinfo of an NVMe root on a partition, /data on LVM over two disks,
// a read-only remount, a path with a space, and pseudo filesystems.
const char* kMountinfo =
    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
    "27 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro\n"
    "30 27 253:0 / /data rw,noatime shared:5 master:2 - xfs /dev/mapper/vg-data rw,attr2\n"
    "31 27 8:1 / /mnt/old\\040disk ro,relatime - ext4 /dev/sda1 rw\n"
    "32 27 8:17 / /mnt/sb-ro rw,relatime - ext4 /dev/sdb1 ro\n"
    "33 27 0:30 / /tmp rw - tmpfs tmpfs rw,size=100k\n"
    "garbage line\n";

// /sys/dev/block/M:m -> ../../devices/.../block/<disk>[/<part>]
struct FakeSysfs {
    fs::path root = fs::temp_directory_path() / ("hwcomm-fake-sysfs-" + std::to_string(::getpid()));
    FakeSysfs() {
        fs::remove_all(root);
        add_disk("259:0", "pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1", "");
        add_disk("259:2", "pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1", "nvme0n1p2");
        add_disk("8:0", "pci0000:00/0000:00:05.0/host0/target0:0:0/0:0:0:0/block/sda", "");
        add_disk("8:1", "pci0000:00/0000:00:05.0/host0/target0:0:0/0:0:0:0/block/sda", "sda1");
        add_disk("8:16", "pci0000:00/0000:00:05.0/host0/target0:0:1/0:0:1:0/block/sdb", "");
        add_disk("8:17", "pci0000:00/0000:00:05.0/host0/target0:0:1/0:0:1:0/block/sdb", "sdb1");
        add_disk("253:0", "virtual/block/dm-0", "");
        // dm-0 (an LVM volume) spans sda1 and sdb1.
        fs::create_directories(root / "devices/virtual/block/dm-0/slaves");
        fs::create_directory_symlink("../../../../pci0000:00/0000:00:05.0/host0/target0:0:0/0:0:0:0/block/sda/sda1",
                                     root / "devices/virtual/block/dm-0/slaves/sda1");
        fs::create_directory_symlink("../../../../pci0000:00/0000:00:05.0/host0/target0:0:1/0:0:1:0/block/sdb/sdb1",
                                     root / "devices/virtual/block/dm-0/slaves/sdb1");
    }
    ~FakeSysfs() { fs::remove_all(root); }
    void add_disk(const std::string& dev, const std::string& disk_dir, const std::string& part) {
        fs::path dir = root / "devices" / disk_dir;
        if (!part.empty()) dir /= part;
        fs::create_directories(dir);
        if (!part.empty()) std::ofstream(dir / "partition") << "1\n";
        fs::create_directories(root / "dev/block");
        fs::create_directory_symlink(fs::relative(dir, root / "dev/block"), root / "dev/block" / dev);
    }
};

}  // namespace

TEST(MountTable, ParsesDevicesPointsTypesAndReadOnlyFlags) {
    const auto t = parse_mountinfo(kMountinfo);
    ASSERT_EQ(t.size(), 6u);  // the garbage line is skipped
    EXPECT_EQ(t[1].mount_point, "/");
    EXPECT_EQ(t[1].major, 259u);
    EXPECT_EQ(t[1].minor, 2u);
    EXPECT_EQ(t[1].fstype, "ext4");
    EXPECT_EQ(t[1].source, "/dev/nvme0n1p2");
    EXPECT_FALSE(t[1].read_only);
    EXPECT_EQ(t[2].fstype, "xfs");  // two optional fields before the separator
    EXPECT_EQ(t[3].mount_point, "/mnt/old disk");
    EXPECT_TRUE(t[3].read_only);  // read-only mount
    EXPECT_TRUE(t[4].read_only);  // read-only superblock
    EXPECT_FALSE(t[5].read_only);
}

TEST(MountTable, TracesPartitionsAndVolumesToWholeDisks) {
    const FakeSysfs sys;
    const std::string r = sys.root.string();
    EXPECT_EQ(whole_disks_of(259, 2, r), std::vector<std::string>{"nvme0n1"});
    EXPECT_EQ(whole_disks_of(259, 0, r), std::vector<std::string>{"nvme0n1"});
    EXPECT_EQ(whole_disks_of(253, 0, r), (std::vector<std::string>{"sda", "sdb"}));
    EXPECT_TRUE(whole_disks_of(0, 30, r).empty());  // tmpfs: no block device

    const auto t = parse_mountinfo(kMountinfo);
    const auto on_sda = mounts_on_disk(t, "sda", r);
    ASSERT_EQ(on_sda.size(), 2u);
    EXPECT_EQ(on_sda[0].mount_point, "/data");
    EXPECT_EQ(on_sda[1].mount_point, "/mnt/old disk");
    const auto on_nvme = mounts_on_disk(t, "nvme0n1", r);
    ASSERT_EQ(on_nvme.size(), 1u);
    EXPECT_EQ(on_nvme[0].mount_point, "/");
    EXPECT_TRUE(mounts_on_disk(t, "sdc", r).empty());
}

TEST(MountTable, ThisMachinesRootIsInItsTable) {
    const auto t = read_mount_table();
    ASSERT_FALSE(t.empty());
    const Mount* root = mount_of_path(t, "/");
    ASSERT_NE(root, nullptr);
    EXPECT_EQ(root->mount_point, "/");
    EXPECT_EQ(mount_of_path(t, "/no/such/path/here"), nullptr);
}
