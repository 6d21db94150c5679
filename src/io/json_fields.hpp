#pragma once
// Small helpers the results readers and writers share: optional numbers (NaN
// is "absent") and the keys a reader does not know, kept and written back.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "core/json_parse.hpp"

namespace hwcomm::io_detail {

// The members of object `j` whose names are not in `known`.
inline nlohmann::json unknown_keys(const nlohmann::json& j, std::initializer_list<const char*> known) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [name, value] : j.items()) {
        bool is_known = false;
        for (const char* k : known) is_known = is_known || name == k;
        if (!is_known) out[name] = value;
    }
    return out;
}

// Adds the kept unknown keys; a key this build wrote itself wins.
inline void merge_unknown(nlohmann::json& out, const nlohmann::json& unknown) {
    if (!unknown.is_object()) return;
    for (const auto& [name, value] : unknown.items())
        if (!out.contains(name)) out[name] = value;
}

// JSON has no NaN: an absent statistic is an absent key.
inline void put_number(nlohmann::json& j, const char* key, double v) {
    if (std::isfinite(v)) j[key] = v;
}

inline double number_or_nan(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    return it == j.end() || it->is_null() ? std::nan("") : it->get<double>();
}

// A size or count: a JSON integer of at least 0 (get<uint64_t> would wrap -1
// to 2^64-1, which a rewrite by run --resume would then store, and cast 1e30
// out of range, which is undefined); refused, naming the field.
inline std::uint64_t whole_number(const nlohmann::json& j, const char* key) {
    const nlohmann::json& v = j.at(key);
    if (const std::optional<std::uint64_t> n = whole_number_of(v)) return *n;
    throw std::runtime_error(std::string(key) + " must be a non-negative integer, not " +
                             (v.is_number() ? v.dump() : std::string("a ") + v.type_name()));
}

}  // namespace hwcomm::io_detail
