#include "report/html/html_escape.hpp"

#include "core/utf8.hpp"

namespace hwcomm::report_html {

std::string html_escape(std::string_view text) {
    const std::string valid = to_valid_utf8(text);
    std::string out;
    out.reserve(valid.size());
    for (const char c : valid) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        case '\t':
        case '\n':
        case '\r': out += c; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) out += "\xEF\xBF\xBD";
            else out += c;
        }
    }
    return out;
}

}  // namespace hwcomm::report_html
