// Text from outside (hwloc strings, host names) made valid UTF-8 once (issue 25).
#include <gtest/gtest.h>

#include "core/utf8.hpp"

using namespace hwcomm;

namespace {
const std::string kReplacement = "\xEF\xBF\xBD";
}

TEST(Utf8, ValidTextComesBackUnchanged) {
    for (const std::string& s : {std::string(), std::string("Xeon Gold 6248"), std::string("caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80"),
                                std::string("\xEF\xBF\xBD"), std::string("\xF4\x8F\xBF\xBF")}) {
        EXPECT_TRUE(is_valid_utf8(s)) << escape_bytes(s);
        EXPECT_EQ(to_valid_utf8(s), s);
    }
}

TEST(Utf8, EachInvalidByteBecomesOneReplacementCharacter) {
    EXPECT_EQ(to_valid_utf8("caf\xE9"), "caf" + kReplacement);                      // latin-1
    EXPECT_EQ(to_valid_utf8("G\xFCnther \xE9t\xE9"), "G" + kReplacement + "nther " + kReplacement + "t" + kReplacement);
    EXPECT_EQ(to_valid_utf8("\xC0\xAF"), kReplacement + kReplacement);              // overlong "/"
    EXPECT_EQ(to_valid_utf8("\xED\xA0\x80"), kReplacement + kReplacement + kReplacement);  // a surrogate
    EXPECT_EQ(to_valid_utf8("\xF4\x90\x80\x80"), kReplacement + kReplacement + kReplacement + kReplacement);  // > U+10FFFF
    EXPECT_EQ(to_valid_utf8("ab\xE2\x86"), "ab" + kReplacement + kReplacement);     // cut short
    EXPECT_EQ(to_valid_utf8(std::string("a\0b", 3)), std::string("a\0b", 3));      // NUL is valid UTF-8
    for (const std::string& s : {std::string("caf\xE9"), std::string("\xC0\xAF"), std::string("ab\xE2\x86"), std::string("\xFF")}) {
        EXPECT_FALSE(is_valid_utf8(s)) << escape_bytes(s);
        EXPECT_TRUE(is_valid_utf8(to_valid_utf8(s))) << escape_bytes(s);
    }
}

TEST(Utf8, EscapedBytesKeepTheOriginalReadably) {
    EXPECT_EQ(escape_bytes("caf\xE9"), "caf\\xe9");
    EXPECT_EQ(escape_bytes("a\\b\n"), "a\\\\b\\x0a");
    EXPECT_EQ(escape_bytes("plain ASCII"), "plain ASCII");
}
