// The one guarded input path (issue 25): regular files only, capped on disk
// and after gzip inflation; every refusal one line naming the file and why.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <zlib.h>

#include "core/input_file.hpp"
#include "core/json_parse.hpp"

using namespace hwcomm;

namespace {

class Scratch {
public:
    Scratch() {
        char pattern[] = "/tmp/hwcomm-input-XXXXXX";
        if (!::mkdtemp(pattern)) throw std::runtime_error("mkdtemp");
        dir_ = pattern;
    }
    ~Scratch() { std::filesystem::remove_all(dir_); }
    std::string write(const std::string& name, const std::string& bytes) const {
        std::ofstream(dir_ + "/" + name, std::ios::binary) << bytes;
        return dir_ + "/" + name;
    }
    std::string path(const std::string& name) const { return dir_ + "/" + name; }

private:
    std::string dir_;
};

std::string gzip(const std::string& text) {
    z_stream z{};
    deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&z, text.size()) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

// The reason of the refusal, checking the whole message names the file once.
std::string refusal(const std::string& path, std::size_t cap = kMaxInputBytes) {
    try {
        read_regular_input_file(path, "test file", cap);
    } catch (const InputError& e) {
        const std::string message = e.what();
        EXPECT_EQ(message, "cannot read test file " + path + ": " + e.reason());
        EXPECT_EQ(message.find('\n'), std::string::npos);
        return e.reason();
    }
    return "";
}

}  // namespace

TEST(InputFile, PipesDevicesAndDirectoriesAreRefusedNotWaitedOn) {
    Scratch s;
    ASSERT_EQ(::mkfifo(s.path("fifo").c_str(), 0600), 0);
    EXPECT_EQ(refusal(s.path("fifo")), "not a regular file (a pipe, socket or device)");
    EXPECT_EQ(refusal("/dev/zero"), "not a regular file (a pipe, socket or device)");
    EXPECT_EQ(refusal(s.path("")), "is a directory");
    EXPECT_EQ(refusal(s.path("missing")), "No such file or directory");
    EXPECT_FALSE(is_gzip_file(s.path("fifo")));  // answered without opening the pipe for reading
}

TEST(InputFile, SizeIsCappedOnDiskAndAfterInflation) {
    Scratch s;
    EXPECT_EQ(refusal(s.write("big.json", std::string(2048, ' ')), 1024), "larger than 1024 bytes");
    // 4 MiB of zeros in a few KiB: inflation stops at the cap, it is not read whole.
    const std::string bomb = s.write("bomb.json.gz", gzip(std::string(4 << 20, '0')));
    EXPECT_LT(std::filesystem::file_size(bomb), 64u << 10);
    EXPECT_EQ(refusal(bomb, 1 << 20), "gzip content inflates to more than 1 MiB");
    EXPECT_EQ(read_regular_input_file(bomb, "test file", 8 << 20).size(), 4u << 20);  // small: the ratio is not checked
    // Past 16 MiB, more than 100 times the compressed size is refused long before the cap.
    const std::string big_bomb = s.write("big.json.gz", gzip(std::string(64 << 20, '0')));
    EXPECT_EQ(refusal(big_bomb), "gzip content inflates to more than 100 times its size (not a file hwcomm wrote)");
}

TEST(InputFile, GzipIsInflatedAndItsFaultsNamed) {
    Scratch s;
    const std::string text = "{\"schema\": \"hwcomm-results\"}";
    EXPECT_EQ(read_regular_input_file(s.write("a.json.gz", gzip(text)), "test file", kMaxInputBytes), text);
    // Concatenated members, as gzip a b > c writes them.
    EXPECT_EQ(read_regular_input_file(s.write("ab.gz", gzip("ab") + gzip("cd")), "test file", kMaxInputBytes), "abcd");
    EXPECT_EQ(read_regular_input_file(s.write("raw.gz", gzip("x")), "test file", kMaxInputBytes, Gzip::AsIs), gzip("x"));
    const std::string packed = gzip(std::string(100000, 'a') + "b");
    EXPECT_EQ(refusal(s.write("cut.gz", packed.substr(0, packed.size() / 2))), "gzip content ends early (truncated file)");
    EXPECT_EQ(refusal(s.write("junk.gz", std::string("\x1f\x8b\x08\x00", 4) + std::string(64, '\x7f'))).rfind("corrupt gzip content", 0), 0u);
    EXPECT_TRUE(is_gzip_file(s.path("a.json.gz")));
    EXPECT_FALSE(is_gzip_file(s.write("plain.json", text)));
}

TEST(InputFile, JsonErrorsNameTheFileOnceInWords) {
    try {
        parse_json_text("{\"a\": ", "f.json");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "f.json " + e.reason());
        EXPECT_EQ(e.reason().rfind("is not valid JSON (line 1, column 7: ", 0), 0u) << e.reason();
        EXPECT_EQ(e.reason().find("json.exception"), std::string::npos);
    }
    try {
        (void)nlohmann::json::parse("3").get<std::string>();
        FAIL();
    } catch (const nlohmann::json::exception& e) {
        EXPECT_EQ(json_error_text(e), "type must be string, but is number");
    }
}
