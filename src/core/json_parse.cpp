#include "core/json_parse.hpp"

#include "core/error.hpp"

namespace hwcomm {

namespace {

// Thrown from the parser callback, so parsing stops at the first level too deep.
struct TooDeep {};

void erase_prefix(std::string& s, std::string_view prefix) {
    if (s.rfind(prefix, 0) == 0) s.erase(0, prefix.size());
}

}  // namespace

std::string json_error_text(const nlohmann::json::exception& e) {
    std::string text = e.what();
    if (text.rfind("[json.exception.", 0) == 0) {
        const auto close = text.find("] ");
        if (close != std::string::npos) text.erase(0, close + 2);
    }
    // "parse error at line 1, column 7: syntax error while parsing value - unexpected end of input; expected ..."
    erase_prefix(text, "parse error at ");
    for (const char* jargon : {"syntax error while parsing value - ", "syntax error while parsing object key - ",
                               "syntax error while parsing object separator - ", "syntax error while parsing object - ",
                               "syntax error while parsing array - "}) {
        const auto at = text.find(jargon);
        if (at != std::string::npos) text.erase(at, std::string_view(jargon).size());
    }
    return text;
}

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
        const std::string reason = "nests JSON deeper than " + std::to_string(max_depth) + " levels";
        throw InputError(name + " " + reason, reason);
    } catch (const nlohmann::json::exception& e) {
        const std::string reason = "is not valid JSON (" + json_error_text(e) + ")";
        throw InputError(name + " " + reason, reason);
    }
}

nlohmann::json parse_json_file(const std::string& path, const std::string& what, int max_depth) {
    return parse_json_text(read_regular_input_file(path, what, kMaxJsonFileBytes), path, max_depth);
}

}  // namespace hwcomm
