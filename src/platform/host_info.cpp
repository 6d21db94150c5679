#include "platform/host_info.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <ctime>
#include <fstream>
#include <sstream>

namespace hwcomm {

namespace {

std::string trim(std::string s) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string cpu_model_from_proc() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) return trim(line.substr(colon + 1));
        }
    }
    return "unknown";
}

}  // namespace

std::string utc_now_iso8601() {
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::vector<std::string> process_command_line() {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::vector<std::string> args;
    std::string arg;
    while (std::getline(in, arg, '\0')) args.push_back(arg);
    return args;
}

std::uint64_t parse_mem_available(const std::string& meminfo_text) {
    std::istringstream in(meminfo_text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("MemAvailable:", 0) != 0) continue;
        std::istringstream fields(line.substr(13));
        std::uint64_t value = 0;
        std::string unit;
        if (!(fields >> value)) return 0;
        fields >> unit;
        return unit == "kB" ? value * 1024 : value;  // the kernel reports kB
    }
    return 0;
}

std::uint64_t available_memory_bytes() {
    if (std::ifstream file{"/proc/meminfo"}) {
        std::ostringstream text;
        text << file.rdbuf();
        if (const std::uint64_t v = parse_mem_available(text.str()); v > 0) return v;
    }
    const long pages = sysconf(_SC_AVPHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

HostInfo read_host_info() {
    HostInfo info;
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0) info.hostname = host;
    utsname u{};
    if (uname(&u) == 0) info.kernel = u.release;
    info.cpu_model = cpu_model_from_proc();
    info.date_utc = utc_now_iso8601();
    return info;
}

}  // namespace hwcomm
