#pragma once
// The one escaper for text that goes into HTML or SVG/XML markup, as element
// content or as a quoted attribute value (either quote). Every page and
// picture hwcomm writes goes through it (issue 24: three private copies, one
// of which left '"' unescaped inside data-file="...").
#include <string>
#include <string_view>

namespace hwcomm::report_html {

// & < > " ' become entities; control characters that XML 1.0 forbids even
// as references (all below U+0020 but tab, newline and carriage return) and
// bytes that are not UTF-8 become U+FFFD, so the result is well-formed in
// HTML and in a standalone SVG file.
std::string html_escape(std::string_view text);

}  // namespace hwcomm::report_html
