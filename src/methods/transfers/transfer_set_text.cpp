// The text of a transfer-set file: parsing with a one-line message naming the
// file and line of the first problem, and the canonical form written back.
#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "core/error.hpp"
#include "measure/byte_size.hpp"
#include "methods/transfers/transfer_set.hpp"

namespace hwcomm {

const char* to_string(TransferExecutor executor) {
    switch (executor) {
        case TransferExecutor::Ce: return "ce";
        case TransferExecutor::Sm: return "sm";
        case TransferExecutor::Tma: return "tma";
        case TransferExecutor::Cpu: return "cpu";
    }
    return "?";
}

std::string TransferLine::executor_text() const {
    std::string out = to_string(executor);
    if (units) out += ":" + std::to_string(units);
    if (!at.empty()) out += "@" + at;
    return out;
}

namespace {

constexpr std::size_t kMaxNameLength = 64;
constexpr std::size_t kMaxIdLength = 128;
constexpr unsigned kMaxUnits = 65535;
constexpr std::uint64_t kMaxBytes = std::uint64_t{1} << 40;  // the run's own limit (run_options.hpp)

// A field as a one-line message may show it: bounded (the line itself is printable ASCII).
std::string shortened(const std::string& text) { return text.size() > 40 ? text.substr(0, 40) + "..." : text; }

class LineError {
public:
    LineError(const std::string& source, std::size_t line) : where_(source + ":" + std::to_string(line) + ": ") {}
    [[noreturn]] void operator()(const std::string& why) const { throw UsageError(where_ + why); }

private:
    std::string where_;
};

std::string trim(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t')) --e;
    return std::string(s.substr(b, e - b));
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '+'; }
// Vertex ids: numa0, gpu1, pci:0000:00:06.0 (no spaces, no commas, no '@').
bool id_char(char c) { return c > ' ' && c < 0x7f && c != ',' && c != '@' && c != '#'; }

void check_name(const std::string& name, const LineError& fail) {
    if (name.empty()) fail("the set name is empty (expected: set, executor, src, dst, size[, host_mem])");
    if (name.size() > kMaxNameLength) fail("set name '" + shortened(name) + "' is longer than 64 characters");
    if (!std::all_of(name.begin(), name.end(), name_char))
        fail("set name '" + shortened(name) + "' may hold letters, digits and _ . - + only");
}

void check_id(const std::string& id, const char* what, const LineError& fail) {
    if (id.empty()) fail(std::string(what) + " is empty");
    if (id.size() > kMaxIdLength) fail(std::string(what) + " '" + shortened(id) + "' is longer than 128 characters");
    if (!std::all_of(id.begin(), id.end(), id_char)) fail(std::string(what) + " '" + shortened(id) + "' is not a vertex id");
}

unsigned parse_units(const std::string& text, const LineError& fail) {
    if (text.empty() || text.size() > 5 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        fail("executor count ':" + shortened(text) + "' is not a whole number from 1 to 65535");
    const unsigned long n = std::stoul(text);
    if (n < 1 || n > kMaxUnits) fail("executor count ':" + text + "' is not a whole number from 1 to 65535");
    return static_cast<unsigned>(n);
}

// EXEC[:N][@ID]
void parse_executor(const std::string& text, TransferLine& t, const LineError& fail) {
    std::string rest = lower(text);
    if (const auto at = rest.find('@'); at != std::string::npos) {
        t.at = text.substr(at + 1);  // the id keeps its case
        check_id(t.at, "the executor's endpoint after '@'", fail);
        rest = rest.substr(0, at);
    }
    if (const auto colon = rest.find(':'); colon != std::string::npos) {
        t.units = parse_units(rest.substr(colon + 1), fail);
        rest = rest.substr(0, colon);
    }
    static const std::map<std::string, TransferExecutor> names{{"ce", TransferExecutor::Ce},
                                                               {"sm", TransferExecutor::Sm},
                                                               {"tma", TransferExecutor::Tma},
                                                               {"cpu", TransferExecutor::Cpu}};
    const auto it = names.find(rest);
    if (it == names.end()) fail("unknown executor '" + shortened(text) + "' (ce, sm, tma or cpu, then :N and @ID if needed)");
    t.executor = it->second;
    if (t.executor == TransferExecutor::Ce && t.units)
        fail("executor '" + shortened(text) + "': copy engines take no count (':N' is for sm, tma and cpu)");
}

std::uint64_t parse_bytes(const std::string& text, const LineError& fail) {
    if (text.empty() || lower(text) == "sweep") return 0;
    std::uint64_t bytes = 0;
    try {
        bytes = parse_size(text);
    } catch (const UsageError&) {
        fail("size '" + shortened(text) + "' is not a byte size (4096, 64K, 256M, 1G) or 'sweep'");
    }
    if (bytes == 0) fail("size 0: a transfer moves at least one byte");
    if (bytes > kMaxBytes) fail("size '" + shortened(text) + "' is above 1 TiB");
    return bytes;
}

std::vector<std::string> split_fields(const std::string& line) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const auto comma = line.find(',', start);
        out.push_back(trim(std::string_view(line).substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
        if (comma == std::string::npos) return out;
        start = comma + 1;
    }
}

bool is_header(const std::vector<std::string>& fields) {
    return fields.size() >= 2 && lower(fields[0]) == "set" && lower(fields[1]) == "executor";
}

TransferLine parse_line(const std::vector<std::string>& f, std::size_t number, const LineError& fail) {
    if (f.size() < 5 || f.size() > 6)
        fail(std::to_string(f.size()) + " fields; expected: set, executor, src, dst, size[, host_mem]");
    TransferLine t;
    t.line = number;
    t.set = f[0];
    check_name(t.set, fail);
    parse_executor(f[1], t, fail);
    t.src = f[2];
    t.dst = f[3];
    check_id(t.src, "the source", fail);
    check_id(t.dst, "the destination", fail);
    t.bytes = parse_bytes(f[4], fail);
    if (f.size() == 6) {
        t.host_mem = lower(f[5]);
        if (t.host_mem.size() > 32 || !std::all_of(t.host_mem.begin(), t.host_mem.end(), name_char))
            fail("host memory '" + shortened(f[5]) + "' is not a host memory kind (pinned, registered, wc)");
    }
    return t;
}

}  // namespace

TransferSetFile parse_transfer_sets(std::string_view text, const std::string& source) {
    TransferSetFile file;
    file.source = source;
    if (text.size() > kMaxTransferSetFileBytes)
        throw UsageError(source + ": larger than " + std::to_string(kMaxTransferSetFileBytes) + " bytes");
    std::map<std::string, std::size_t> set_index;  // name -> index in file.sets
    bool first = true;
    std::size_t number = 0, start = 0;
    while (start <= text.size()) {
        const auto end = text.find('\n', start);
        std::string_view raw = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        start = end == std::string_view::npos ? text.size() + 1 : end + 1;
        ++number;
        if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
        const LineError fail(source, number);
        for (char c : raw)
            if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || static_cast<unsigned char>(c) >= 0x7f)
                fail("a byte that is not printable ASCII");
        const std::string line = trim(raw);
        if (line.empty() || line.front() == '#') continue;
        const auto fields = split_fields(line);
        if (first && is_header(fields)) {
            first = false;
            continue;
        }
        first = false;
        TransferLine t = parse_line(fields, number, fail);
        const auto it = set_index.find(t.set);
        if (it == set_index.end()) {
            if (file.sets.size() == kMaxTransferSets) fail("more than " + std::to_string(kMaxTransferSets) + " sets");
            set_index[t.set] = file.sets.size();
            file.sets.push_back({t.set, number, t.bytes, {}});
        } else if (it->second + 1 != file.sets.size()) {
            fail("set '" + t.set + "' began at line " + std::to_string(file.sets[it->second].line) +
                 " and another set came between: keep the lines of a set together");
        }
        TransferSet& set = file.sets.back();
        if (set.transfers.size() == kMaxTransfersPerSet)
            fail("set '" + set.name + "' has more than " + std::to_string(kMaxTransfersPerSet) + " transfers");
        if (t.bytes != set.bytes)
            fail("set '" + set.name + "' moves " + (set.bytes ? format_size(set.bytes) : std::string("the run's sizes")) +
                 " from line " + std::to_string(set.line) + " and " +
                 (t.bytes ? format_size(t.bytes) : std::string("the run's sizes")) +
                 " here: the transfers of a set start together and move one size");
        set.transfers.push_back(std::move(t));
    }
    if (file.sets.empty()) throw UsageError(source + ": no transfer (expected lines 'set, executor, src, dst, size')");
    return file;
}

std::string format_transfer_sets(const TransferSetFile& file) {
    std::ostringstream out;
    out << "set,executor,src,dst,size,host_mem\n";
    for (const TransferSet& set : file.sets)
        for (const TransferLine& t : set.transfers)
            out << t.set << "," << t.executor_text() << "," << t.src << "," << t.dst << ","
                << (t.bytes ? std::to_string(t.bytes) : std::string("sweep")) << "," << t.host_mem << "\n";
    return out.str();
}

}  // namespace hwcomm
