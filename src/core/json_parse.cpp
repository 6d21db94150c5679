#include "core/json_parse.hpp"

#include "core/error.hpp"
#include "core/input_file.hpp"

namespace hwcomm {

namespace {

// Thrown from the parser callback, so parsing stops at the first level too deep.
struct TooDeep {};

}  // namespace

nlohmann::json parse_json_text(std::string_view text, const std::string& name, int max_depth) {
    const auto limit = [max_depth](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
        const bool opens = event == nlohmann::json::parse_event_t::object_start ||
                           event == nlohmann::json::parse_event_t::array_start;
        if (opens && depth >= max_depth) throw TooDeep{};
        return true;
    };
    try {
        return nlohmann::json::parse(text, limit);
    } catch (const TooDeep&) {
        throw UsageError(name + " nests JSON deeper than " + std::to_string(max_depth) + " levels");
    } catch (const nlohmann::json::exception& e) {
        throw UsageError(name + " is not valid JSON (" + e.what() + ")");
    }
}

nlohmann::json parse_json_file(const std::string& path, const std::string& what, int max_depth) {
    return parse_json_text(read_regular_input_file(path, what, kMaxJsonFileBytes), path, max_depth);
}

}  // namespace hwcomm
