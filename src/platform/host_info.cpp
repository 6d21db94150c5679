#include "platform/host_info.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/utf8.hpp"

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
    // An argument may be any bytes (a latin-1 file name); the results file is JSON.
    while (std::getline(in, arg, '\0')) args.push_back(to_valid_utf8(arg));
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

std::string running_command_of_stat(const std::string& stat_line) {
    // The command sits in parentheses and may itself hold ") ": the state follows the last one.
    const auto open = stat_line.find('(');
    const auto close = stat_line.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open || close + 2 >= stat_line.size())
        return "";
    return stat_line[close + 2] == 'R' ? to_valid_utf8(stat_line.substr(open + 1, close - open - 1)) : "";
}

std::vector<std::string> other_running_commands() {
    std::vector<std::pair<long, std::string>> running;
    const long self = static_cast<long>(::getpid());
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        const long pid = std::stol(name);
        if (pid == self) continue;
        std::ifstream in(entry.path() / "stat");
        std::string line;
        if (!std::getline(in, line)) continue;  // gone meanwhile
        if (std::string command = running_command_of_stat(line); !command.empty()) running.emplace_back(pid, command);
    }
    std::sort(running.begin(), running.end());
    std::vector<std::string> out;
    for (auto& [pid, command] : running) out.push_back(std::move(command));
    return out;
}

HostInfo read_host_info() {
    HostInfo info;
    char host[256] = {};
    // Host facts go into JSON: bytes that are not UTF-8 become U+FFFD here.
    if (gethostname(host, sizeof host - 1) == 0) info.hostname = to_valid_utf8(host);
    utsname u{};
    if (uname(&u) == 0) info.kernel = to_valid_utf8(u.release);
    info.cpu_model = to_valid_utf8(cpu_model_from_proc());
    info.date_utc = utc_now_iso8601();
    return info;
}

}  // namespace hwcomm
