#pragma once
// Facts about this host for the results file's meta block.
#include <cstdint>
#include <string>
#include <vector>

namespace hwcomm {

struct HostInfo {
    std::string hostname;
    std::string kernel;     // uname -r
    std::string cpu_model;  // "model name" of /proc/cpuinfo
    std::string date_utc;   // ISO 8601, "2024-05-01T12:00:00Z"
};

HostInfo read_host_info();
std::string utc_now_iso8601();
// This process's argv, from /proc/self/cmdline (empty when unreadable).
std::vector<std::string> process_command_line();
// MemAvailable from the text of /proc/meminfo, in bytes; 0 when absent.
std::uint64_t parse_mem_available(const std::string& meminfo_text);
// This machine's MemAvailable in bytes (free pages when /proc is unreadable), 0 when unknown.
std::uint64_t available_memory_bytes();
// The command of a /proc/PID/stat line when the process is running (state
// R), else "": "1234 (cc1plus) R 1200 ..." -> "cc1plus".
std::string running_command_of_stat(const std::string& stat_line);
// Commands of the other processes running on a CPU now (state R in
// /proc/PID/stat), in PID order: what a high load average comes from.
std::vector<std::string> other_running_commands();

}  // namespace hwcomm
