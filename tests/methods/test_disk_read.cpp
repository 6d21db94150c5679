// disk-read on this machine: a scratch directory under the build tree (not
// /tmp, which may be a tmpfs), the disk under it as the graph's disk vertex
// (tests that need one skip on an overlay root), sessions driven as the
// engine drives them: warm-up, then reset -> measure -> verify per sample.
// Small sizes: CI time.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "discover/mount_table.hpp"
#include "methods/disk/disk_read_session.hpp"
#include "methods/disk/page_cache.hpp"
#include "methods/disk/register.hpp"
#include "methods/disk/test_file.hpp"
#include "numa_graphs.hpp"
#include "platform/hwloc_topology.hpp"

using namespace hwcomm;
namespace fs = std::filesystem;

namespace {

std::size_t entries_in(const fs::path& dir) {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}));
}

class DiskReadTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::current_path() / ("disk-read-scratch-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        const auto table = read_mount_table();
        const Mount* m = mount_of_path(table, dir_.string());
        ASSERT_NE(m, nullptr) << dir_;
        // tmpfs pages cannot leave the page cache and refuse O_DIRECT: no disk read there.
        if (m->fstype == "tmpfs" || m->fstype == "ramfs") GTEST_SKIP() << dir_ << " is on " << m->fstype;
        mount_ = *m;
        const auto disks = whole_disks_of_mount(*m);
        disk_ = disks.empty() ? "" : disks.front();  // empty on overlay roots: sessions still run
        HwlocTopology topo;
        node_ = topo.numa_os_indexes().front();
        graph_.add_vertex(test::numa_vertex(node_, topo.cores_of_numa(node_)));
        if (!disk_.empty())
            graph_.add_vertex(Vertex{.id = "disk:" + disk_, .kind = VertexKind::BlockDevice, .name = disk_});
        graph_.add_vertex(Vertex{.id = "disk:nosuch0", .kind = VertexKind::BlockDevice, .name = "nosuch0"});
        register_disk_methods(registry_);
        options_.values.set("scratch", dir_.string());
    }
    void TearDown() override { fs::remove_all(dir_); }
    const Characterizer& method() const { return *registry_.find("disk-read"); }
    const Vertex& disk() const { return *graph_.find("disk:" + disk_); }
    const Vertex& numa() const { return *graph_.find("numa" + std::to_string(node_)); }
    std::unique_ptr<TransferSession> prepare(const std::string& io, std::size_t bytes) {
        return method().prepare(graph_, disk(), numa(), {{"io", io}}, bytes, options_);
    }
    // The session as prepare() makes it, without needing a disk vertex.
    std::unique_ptr<TransferSession> session(const std::string& io, std::size_t bytes) {
        const DiskTarget target{disk_, dir_.string(), mount_.mount_point, mount_.fstype};
        return std::make_unique<DiskReadSession>(target, node_, disk_io_from(io), bytes, CacheDropPolicy::File);
    }
    void need_disk() {
        if (disk_.empty()) GTEST_SKIP() << dir_ << " is on " << mount_.fstype << ", on no disk sysfs knows";
    }

    fs::path dir_;
    Mount mount_;
    std::string disk_;
    int node_ = 0;
    Graph graph_;
    Registry registry_;
    MethodOptions options_;
};

}  // namespace

TEST_F(DiskReadTest, EverySampleStartsWithTheFileOutOfThePageCacheAndTheRecordSaysHow) {
    constexpr std::size_t kBytes = 256 << 10;
    for (const char* io : {"buffered", "direct", "fread"}) {
        auto s = session(io, kBytes);
        EXPECT_EQ(s->max_bytes(), kBytes) << io;
        EXPECT_EQ(entries_in(dir_), 0u) << "the test file has no name in the scratch directory";
        s->warmup(kBytes, "");
        for (std::size_t bytes : {std::size_t{4096}, kBytes}) {
            for (int i = 0; i < 3; ++i) {
                s->reset(bytes, "");
                const Sample sample = s->measure(bytes, "");
                EXPECT_GT(sample.seconds, 0) << io;
                EXPECT_EQ(sample.bytes_per_rep, static_cast<double>(bytes));
                EXPECT_EQ(sample.metrics.at("cached_bytes_at_start").value, 0) << io << " " << bytes;
                EXPECT_EQ(s->verify(bytes, ""), "") << io << " " << bytes;
            }
        }
        const auto ctx = s->context();
        EXPECT_EQ(ctx.at("io").get<std::string>(), io);
        EXPECT_EQ(ctx.at("disk").get<std::string>(), disk_);
        EXPECT_EQ(ctx.at("scratch_dir").get<std::string>(), dir_.string());
        const auto& drop = ctx.at("cache_drop");
        EXPECT_EQ(drop.at("policy").get<std::string>(), "file");
        EXPECT_EQ(drop.at("samples").get<int>(), 6);
        EXPECT_EQ(drop.at("ways").at("posix_fadvise").get<int>(), 6) << drop.dump();
        EXPECT_EQ(drop.at("samples_with_cached_pages").get<int>(), 0);
        EXPECT_TRUE(ctx.at("placement_verified").get<bool>());
        EXPECT_TRUE(ctx.at("reader").at("bound").get<bool>());
    }
    EXPECT_EQ(entries_in(dir_), 0u);
}

// The io modes of one disk and node read one test file, written by the first;
// direct reads through a descriptor of its own, so the buffered and fread
// sessions after it still go through the page cache (each drop finds the
// pages a read cached). A different size writes a new file.
TEST_F(DiskReadTest, TheIoModesReadOneTestFileWrittenOnce) {
    constexpr std::size_t kBytes = 256 << 10;
    const DiskTarget target{disk_, dir_.string(), mount_.mount_point, mount_.fstype};
    TestFileCache files;
    auto open = [&](DiskIo io, std::size_t bytes) {
        return std::make_unique<DiskReadSession>(target, node_, io, bytes, CacheDropPolicy::File, &files);
    };
    const std::string earlier = "an earlier record of this run (the same directory and size)";
    std::uint64_t free_before = 0;
    for (DiskIo io : {DiskIo::Direct, DiskIo::Buffered, DiskIo::Fread, DiskIo::Direct}) {
        auto s = open(io, kBytes);
        const auto ctx = s->context();
        const bool first = io == DiskIo::Direct && ctx.at("test_file").at("written_for") == "this record";
        if (!first) {
            EXPECT_EQ(ctx.at("test_file").at("written_for"), earlier) << to_string(io);
        }
        // The free space the file was sized by (at most half of it), before it was
        // written: a record reading the kept file says the writer's figure.
        const auto free = ctx.at("scratch_free_bytes").get<std::uint64_t>();
        EXPECT_GE(free, 2 * ctx.at("test_file").at("bytes").get<std::uint64_t>()) << to_string(io);
        if (first) free_before = free;
        else EXPECT_EQ(free, free_before) << to_string(io);
        for (int i = 0; i < 2; ++i) {
            s->reset(kBytes, "");
            EXPECT_EQ(s->measure(kBytes, "").metrics.at("cached_bytes_at_start").value, 0) << to_string(io);
            EXPECT_EQ(s->verify(kBytes, ""), "") << to_string(io);
        }
        // After the last timed read: a buffered or fread one left the file's pages
        // in the page cache, a direct one none (the last reset dropped them).
        bool kept = false;
        const auto file = files.get(dir_.string(), kBytes, [] { return std::shared_ptr<TestFile>(); }, kept);
        ASSERT_TRUE(kept && file);
        if (io == DiskIo::Direct)
            EXPECT_EQ(cached_bytes(file->fd(), kBytes), 0u);
        else
            EXPECT_EQ(cached_bytes(file->fd(), kBytes), kBytes) << to_string(io);
    }
    EXPECT_EQ(open(DiskIo::Buffered, 2 * kBytes)->context().at("test_file").at("written_for"), "this record");
    EXPECT_EQ(entries_in(dir_), 0u);
}

// The file is at most kDiskReadMaxBytes: a record prepared for more reads the
// file of one prepared for exactly that (a shared ladder's followers are
// prepared for the run's largest size, its leader for where it should stop).
TEST_F(DiskReadTest, RecordsPreparedBeyondTheFileCapReadOneFile) {
    if (fs::space(dir_).available < 4 * std::uintmax_t{kDiskReadMaxBytes}) GTEST_SKIP() << "needs 2 GiB free in " << dir_;
    const DiskTarget target{disk_, dir_.string(), mount_.mount_point, mount_.fstype};
    TestFileCache files;
    auto open = [&](DiskIo io, std::size_t bytes) {
        return std::make_unique<DiskReadSession>(target, node_, io, bytes, CacheDropPolicy::File, &files);
    };
    EXPECT_EQ(open(DiskIo::Buffered, kDiskReadMaxBytes)->context().at("test_file").at("written_for"), "this record");
    const auto ctx = open(DiskIo::Direct, 2 * kDiskReadMaxBytes)->context();
    EXPECT_EQ(ctx.at("test_file").at("written_for"), "an earlier record of this run (the same directory and size)");
    EXPECT_EQ(ctx.at("test_file").at("bytes").get<std::uint64_t>(), kDiskReadMaxBytes);
}

TEST_F(DiskReadTest, TheFileIsTheRunsLargestSizeRoundedUpToFourKiB) {
    EXPECT_EQ(session("buffered", 1000)->max_bytes(), 4096u);
    EXPECT_EQ(session("direct", 4097)->max_bytes(), 8192u);
}

TEST_F(DiskReadTest, VerifyFailsWhenNoTimedReadBroughtTheBytes) {
    auto s = session("buffered", 64 << 10);
    s->warmup(64 << 10, "");
    s->reset(64 << 10, "");  // poisons the buffer: the warm-up's bytes are gone
    EXPECT_NE(s->verify(64 << 10, "").find("byte 0"), std::string::npos) << s->verify(64 << 10, "");
}

TEST_F(DiskReadTest, TheDropEmptiesTheFilesPagesThatAReadHadCached) {
    constexpr std::size_t kBytes = 1 << 20;
    {
        const TestFile file(dir_.string(), kBytes, 7);
        EXPECT_EQ(entries_in(dir_), 0u) << file.how();
        std::vector<char> buf(kBytes);
        ASSERT_EQ(::pread(file.fd(), buf.data(), kBytes, 0), static_cast<ssize_t>(kBytes));
        EXPECT_EQ(cached_bytes(file.fd(), kBytes), kBytes);  // mincore sees what a read cached
        const CacheDrop drop = drop_from_page_cache(file.fd(), kBytes, CacheDropPolicy::File);
        EXPECT_EQ(drop.way(), "posix_fadvise") << drop.error;
        EXPECT_EQ(drop.cached_bytes, 0u);
    }
    EXPECT_EQ(entries_in(dir_), 0u);
}

// By default only the test file leaves the page cache, even as root: a
// system-wide drop before every sample also evicted the filesystem's metadata
// and made the next small read pay for it (docs/disk.md).
TEST(DiskReadCacheDrop, TheDefaultDropsTheTestFileOnlyAndSystemIsAskedFor) {
    EXPECT_EQ(cache_drop_policy_from(""), CacheDropPolicy::File);
    EXPECT_EQ(cache_drop_policy_from("file"), CacheDropPolicy::File);
    EXPECT_EQ(cache_drop_policy_from("system"), CacheDropPolicy::System);
    EXPECT_EQ(cache_drop_policy_from("auto"), ::geteuid() == 0 ? CacheDropPolicy::System : CacheDropPolicy::File);
    EXPECT_THROW(cache_drop_policy_from("all"), std::invalid_argument);
    Registry registry;
    register_disk_methods(registry);
    const Characterizer* disk_read = registry.find("disk-read");
    ASSERT_NE(disk_read, nullptr);
    bool found = false;
    for (const OptionSpec& o : disk_read->options())
        if (o.name == "cache-drop") {
            found = true;
            EXPECT_EQ(o.default_value, "file");
        }
    EXPECT_TRUE(found);
}

TEST_F(DiskReadTest, ABadScratchIsAUsageErrorAndAnotherDisksScratchPlansNothing) {
    need_disk();
    EXPECT_EQ(method().parameter_sets(graph_, disk(), numa(), options_).size(), 3u);
    graph_.add_vertex(Vertex{.id = "disk:zz", .kind = VertexKind::BlockDevice, .name = "zz"});
    EXPECT_TRUE(method().parameter_sets(graph_, *graph_.find("disk:zz"), numa(), options_).empty());

    MethodOptions missing = options_;
    missing.values.set("scratch", (dir_ / "missing").string());
    EXPECT_THROW(method().parameter_sets(graph_, disk(), numa(), missing), UsageError);
    std::ofstream(dir_ / "plain") << "x";
    MethodOptions file = options_;
    file.values.set("scratch", (dir_ / "plain").string());
    EXPECT_THROW(method().parameter_sets(graph_, disk(), numa(), file), UsageError);
    EXPECT_NE(scratch_problem((dir_ / "plain").string()).find("not a directory"), std::string::npos);
}

TEST_F(DiskReadTest, PrepareFindsTheScratchDisksMountAndNamesTheDisksLeftOut) {
    need_disk();
    const auto ctx = prepare("direct", 64 << 10)->context();
    EXPECT_EQ(ctx.at("disk").get<std::string>(), disk_);
    EXPECT_EQ(ctx.at("mount_point").get<std::string>(), mount_.mount_point);
    EXPECT_EQ(ctx.at("cache_drop").at("policy").get<std::string>(), "file");
    ASSERT_EQ(ctx.at("disks_skipped").size(), 1u) << ctx.dump();
    EXPECT_EQ(ctx.at("disks_skipped").at(0).at("disk").get<std::string>(), "disk:nosuch0");
    EXPECT_EQ(ctx.at("disks_skipped").at(0).at("reason").get<std::string>(), "no block device nosuch0 in /sys/class/block");
}

TEST(DiskReadApplicability, AGraphOfAnotherMachineHasNoMountsHere) {
    Registry registry;
    register_disk_methods(registry);
    Graph g;
    g.provenance["source"] = "xml:other.xml";
    const Vertex& d = g.add_vertex(Vertex{.id = "disk:sda", .kind = VertexKind::BlockDevice, .name = "sda"});
    const Vertex& n = g.add_vertex(test::numa_vertex(0, 2));
    const Applicability a = registry.find("disk-read")->applicable(g, d, n);
    EXPECT_FALSE(a.ok);
    EXPECT_NE(a.reason.find("xml:other.xml"), std::string::npos) << a.reason;
}
