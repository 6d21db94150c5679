#pragma once
// Helpers shared by the topology tests: fixture paths, a temporary directory,
// the sysfs tarball extracted with CMake's own tar (no bzip2 tool needed).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/graph.hpp"

namespace hwcomm::test {

inline std::string fixture(const std::string& relative) { return std::string(HWCOMM_FIXTURES) + "/" + relative; }

inline std::string minsky_xml() { return fixture("hwloc/power8gpudistances.xml"); }
inline std::string wholeio_xml() { return fixture("hwloc/32em64t-2n8c2t-pci-wholeio.xml"); }
inline std::string x58_xml() { return fixture("hwloc/24em64t-2n6c2t-pci.xml"); }
inline std::string h200_recording() { return fixture("nvml/h200x2.json"); }

class TempDir {
public:
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "hwcomm-test-XXXXXX").string();
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        if (!::mkdtemp(buf.data())) throw std::runtime_error("mkdtemp failed");
        path_ = buf.data();
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }
    std::string file(const std::string& name, const std::string& content) const {
        const std::string p = path_ + "/" + name;
        std::ofstream(p) << content;
        return p;
    }

private:
    std::string path_;
};

// Extracts tests/fixtures/hwloc/32intel64-2p8co2t+8ve.tar.bz2 (a saved sysfs
// tree of a dual-socket Xeon with 8 NEC Vector Engines) and returns its root.
inline std::string extract_sysfs_fixture(const TempDir& dir) {
    const std::string command = std::string("cd '") + dir.path() + "' && '" + HWCOMM_CMAKE + "' -E tar xf '" +
                                fixture("hwloc/32intel64-2p8co2t+8ve.tar.bz2") + "'";
    if (std::system(command.c_str()) != 0) throw std::runtime_error("cannot extract the sysfs fixture");
    return dir.path() + "/32intel64-2p8co2t+8ve";
}

inline const Edge* pcie_edge_to(const Graph& g, const std::string& child) {
    for (const Edge& e : g.edges())
        if (e.kind == EdgeKind::Pcie && e.b == child) return &e;
    return nullptr;
}

inline int count_edges(const Graph& g, EdgeKind kind) {
    int n = 0;
    for (const Edge& e : g.edges()) n += e.kind == kind;
    return n;
}

}  // namespace hwcomm::test
