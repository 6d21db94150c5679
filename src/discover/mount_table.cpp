#include "discover/mount_table.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace hwcomm {

namespace fs = std::filesystem;

namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo (octal).
std::string unescape(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 3 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])) &&
            std::isdigit(static_cast<unsigned char>(s[i + 2])) && std::isdigit(static_cast<unsigned char>(s[i + 3]))) {
            out += static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
            i += 3;
        } else {
            out += s[i];
        }
    }
    return out;
}

bool has_option(const std::string& options, const std::string& name) {
    std::stringstream ss(options);
    std::string item;
    while (std::getline(ss, item, ','))
        if (item == name) return true;
    return false;
}

bool parse_dev(const std::string& text, unsigned& major, unsigned& minor) {
    const auto colon = text.find(':');
    if (colon == std::string::npos) return false;
    try {
        major = static_cast<unsigned>(std::stoul(text.substr(0, colon)));
        minor = static_cast<unsigned>(std::stoul(text.substr(colon + 1)));
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

void collect_disks(const fs::path& dir, const std::string& sysfs_root, std::set<std::string>& out, int depth) {
    std::error_code ec;
    if (depth > 8) return;  // a dm stack deeper than this is a loop in a broken tree
    if (fs::exists(dir / "partition", ec)) {
        out.insert(dir.parent_path().filename().string());
        return;
    }
    bool any_slave = false;
    for (const auto& slave : fs::directory_iterator(dir / "slaves", ec)) {
        any_slave = true;
        const fs::path real = fs::canonical(slave.path(), ec);
        if (!ec) collect_disks(real, sysfs_root, out, depth + 1);
    }
    if (!any_slave) out.insert(dir.filename().string());
}

}  // namespace

std::vector<Mount> parse_mountinfo(const std::string& text) {
    std::vector<Mount> out;
    std::stringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::stringstream ss(line);
        std::vector<std::string> f;
        for (std::string w; ss >> w;) f.push_back(w);
        const auto dash = std::find(f.begin(), f.end(), "-");
        if (f.size() < 10 || dash == f.end() || dash - f.begin() < 6 || f.end() - dash < 4) continue;
        Mount m;
        if (!parse_dev(f[2], m.major, m.minor)) continue;
        m.mount_point = unescape(f[4]);
        m.fstype = *(dash + 1);
        m.source = unescape(*(dash + 2));
        m.read_only = has_option(f[5], "ro") || has_option(*(dash + 3), "ro");
        out.push_back(std::move(m));
    }
    return out;
}

std::vector<Mount> read_mount_table(const std::string& mountinfo_path) {
    std::ifstream in(mountinfo_path);
    if (!in) return {};
    std::stringstream ss;
    ss << in.rdbuf();
    return parse_mountinfo(ss.str());
}

std::vector<std::string> whole_disks_of(unsigned major, unsigned minor, const std::string& sysfs_root) {
    std::error_code ec;
    const fs::path link = fs::path(sysfs_root) / "dev" / "block" / (std::to_string(major) + ":" + std::to_string(minor));
    const fs::path dir = fs::canonical(link, ec);
    if (ec) return {};
    std::set<std::string> disks;
    collect_disks(dir, sysfs_root, disks, 0);
    return {disks.begin(), disks.end()};
}

std::vector<std::string> whole_disks_of_mount(const Mount& mount, const std::string& sysfs_root) {
    auto disks = whole_disks_of(mount.major, mount.minor, sysfs_root);
    if (!disks.empty() || mount.source.rfind("/dev/", 0) != 0) return disks;
    struct stat st {};
    if (::stat(mount.source.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return disks;
    return whole_disks_of(::major(st.st_rdev), ::minor(st.st_rdev), sysfs_root);
}

std::vector<Mount> mounts_on_disk(const std::vector<Mount>& table, const std::string& disk,
                                  const std::string& sysfs_root) {
    std::vector<Mount> out;
    for (const Mount& m : table) {
        const auto disks = whole_disks_of_mount(m, sysfs_root);
        if (std::find(disks.begin(), disks.end(), disk) != disks.end()) out.push_back(m);
    }
    return out;
}

const Mount* mount_of_path(const std::vector<Mount>& table, const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return nullptr;
    std::error_code ec;
    const std::string real = fs::canonical(path, ec).string();
    const Mount* best = nullptr;
    std::size_t best_len = 0;
    for (const Mount& m : table) {
        if (m.major != ::major(st.st_dev) || m.minor != ::minor(st.st_dev)) continue;
        const std::string& mp = m.mount_point;
        const bool under = real.compare(0, mp.size(), mp) == 0 &&
                           (real.size() == mp.size() || mp == "/" || real[mp.size()] == '/');
        const std::size_t len = under ? mp.size() + 1 : 0;
        if (!best || len > best_len || (len == best_len && under)) {  // the last of equals: mounted on top
            best = &m;
            best_len = len;
        }
    }
    return best;
}

}  // namespace hwcomm
