#include "methods/method_options.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "core/error.hpp"
#include "measure/byte_size.hpp"

namespace hwcomm {

const char* to_string(OptionType type) {
    switch (type) {
    case OptionType::Int: return "int";
    case OptionType::Size: return "size";
    case OptionType::String: return "string";
    case OptionType::Flag: return "flag";
    }
    return "?";
}

const char* to_string(TimingMode mode) { return mode == TimingMode::Event ? "event" : "wall"; }

std::optional<TimingMode> timing_mode_from(const std::string& text) {
    if (text == "event") return TimingMode::Event;
    if (text == "wall") return TimingMode::Wall;
    return std::nullopt;
}

std::string OptionValues::string_or(const std::string& name, const std::string& fallback) const {
    const auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
}

std::int64_t OptionValues::int_or(const std::string& name, std::int64_t fallback) const {
    const auto it = values_.find(name);
    if (it == values_.end()) return fallback;
    std::size_t used = 0;
    const long long v = std::stoll(it->second, &used);
    if (used != it->second.size()) throw std::invalid_argument("option " + name + ": not an integer: " + it->second);
    return v;
}

std::uint64_t OptionValues::size_or(const std::string& name, std::uint64_t fallback) const {
    const auto it = values_.find(name);
    return it == values_.end() ? fallback : parse_size(it->second);
}

bool OptionValues::flag(const std::string& name) const {
    const auto it = values_.find(name);
    return it != values_.end() && (it->second == "true" || it->second == "1");
}

std::string check_option_value(const OptionSpec& spec, const std::string& value) {
    const std::string where = "--" + spec.name + " ";
    switch (spec.type) {
    case OptionType::Size:
        try {
            parse_size(value);
            return "";
        } catch (const UsageError& e) {
            return where + e.what();
        }
    case OptionType::Int: {
        if (value.empty()) return where + "needs a value";
        std::size_t used = 0;
        try {
            const long long v = std::stoll(value, &used);
            if (used != value.size()) return where + "is not an integer: '" + value + "'";
            if (v < 0) return where + "must not be negative";
        } catch (const std::exception&) {
            return where + "is not an integer in range: '" + value + "'";
        }
        return "";
    }
    case OptionType::Flag:
        return value == "true" || value == "false" ? "" : where + "is a flag (true|false)";
    case OptionType::String:
        if (spec.choices.empty() || std::find(spec.choices.begin(), spec.choices.end(), value) != spec.choices.end())
            return "";
        {
            std::string allowed;
            for (const auto& c : spec.choices) allowed += (allowed.empty() ? "" : "|") + c;
            return where + "must be one of " + allowed + ", not '" + value + "'";
        }
    }
    return "";
}

std::vector<std::uint64_t> SizePolicy::apply(const std::vector<std::uint64_t>& run_sizes) const {
    std::set<std::uint64_t> out;
    std::vector<std::uint64_t> base = run_sizes;
    if (points_per_octave > 0 && !run_sizes.empty()) {
        base.clear();
        const auto [lo, hi] = std::minmax_element(run_sizes.begin(), run_sizes.end());
        const double step = std::pow(2.0, 1.0 / points_per_octave);
        for (double s = static_cast<double>(std::max<std::uint64_t>(1, *lo)); s <= static_cast<double>(*hi) * 1.0000001;
             s *= step)
            base.push_back(static_cast<std::uint64_t>(std::llround(s)));
    }
    const std::uint64_t align = std::max<std::uint64_t>(1, alignment);
    for (std::uint64_t s : base) {
        std::uint64_t r = (s + align - 1) / align * align;
        if (r < min_bytes) continue;
        if (max_bytes && r > max_bytes) continue;
        out.insert(r);
    }
    if (largest_only && !out.empty()) return {*out.rbegin()};
    return {out.begin(), out.end()};
}

nlohmann::json option_spec_to_json(const OptionSpec& spec) {
    nlohmann::json j{{"name", spec.name}, {"type", to_string(spec.type)}, {"default", spec.default_value},
                     {"doc", spec.doc}};
    if (!spec.choices.empty()) j["choices"] = spec.choices;
    return j;
}

nlohmann::json axis_spec_to_json(const AxisSpec& axis) {
    return nlohmann::json{{"name", axis.name}, {"values", axis.values}, {"unit", axis.unit}, {"doc", axis.doc}};
}

}  // namespace hwcomm
