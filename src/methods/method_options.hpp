#pragma once
// What a method declares about itself once, for the CLI, the results file and
// `hwcomm list` to take from there: its options (name, type, default, doc),
// its axes besides bytes (stride, warps per SM...) and its size policy.
// Adding an option to a method touches its options() alone.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hwcomm {

enum class OptionType { Int, Size, String, Flag };
const char* to_string(OptionType type);

// How CUDA methods time a sample: CUDA events around the queued work, or the
// host's clock around a synchronised batch (--timing).
enum class TimingMode { Event, Wall };
const char* to_string(TimingMode mode);  // "event" | "wall"
// "event" | "wall"; nullopt for anything else.
std::optional<TimingMode> timing_mode_from(const std::string& text);

struct OptionSpec {
    std::string name;           // "--name" on the command line
    OptionType type = OptionType::String;
    std::string default_value;  // as typed on the command line; "" for a flag that is off
    std::string doc;
    std::vector<std::string> choices;  // String: the allowed values, empty = any
};

// Values of the declared options as the user gave them (defaults filled in).
class OptionValues {
public:
    void set(const std::string& name, std::string value) { values_[name] = std::move(value); }
    bool has(const std::string& name) const { return values_.count(name) != 0; }
    // The value, else the fallback; throws std::invalid_argument on a malformed number.
    std::string string_or(const std::string& name, const std::string& fallback) const;
    std::int64_t int_or(const std::string& name, std::int64_t fallback) const;
    // A Size option: bytes, K/M/G binary (parse_size); throws UsageError when malformed.
    std::uint64_t size_or(const std::string& name, std::uint64_t fallback) const;
    bool flag(const std::string& name) const;
    const std::map<std::string, std::string>& all() const { return values_; }

private:
    std::map<std::string, std::string> values_;
};

// Checks a value against its spec; returns "" or why not (for a one-line UsageError).
std::string check_option_value(const OptionSpec& spec, const std::string& value);

// A named axis besides bytes: every point of a record takes one value of each.
struct AxisSpec {
    std::string name;                    // "stride", "warps_per_sm"
    std::vector<nlohmann::json> values;  // integer or string JSON scalars, in measuring order
    std::string unit;                    // "elements", "warps", "" ...
    std::string doc;
};

// Which transfer sizes a method takes from the run's sweep.
struct SizePolicy {
    std::uint64_t alignment = 1;  // sizes rounded up to a multiple (O_DIRECT: 4096)
    std::uint64_t min_bytes = 0;
    std::uint64_t max_bytes = 0;  // 0: no limit of the method's own
    double points_per_octave = 0;  // 0: the run's sweep; else the method's own spacing (0.5: every 2nd octave)
    bool largest_only = false;     // only the largest size left (methods swept along an axis at one working set)

    // The run's sizes under this policy: rounded, clipped, deduplicated, ascending.
    std::vector<std::uint64_t> apply(const std::vector<std::uint64_t>& run_sizes) const;
};

nlohmann::json option_spec_to_json(const OptionSpec& spec);
nlohmann::json axis_spec_to_json(const AxisSpec& axis);

}  // namespace hwcomm
