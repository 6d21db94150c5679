#include "discover/names.hpp"

#include <array>

namespace hwcomm {

namespace {

void erase_all(std::string& s, const std::string& what) {
    for (auto pos = s.find(what); pos != std::string::npos; pos = s.find(what)) s.erase(pos, what.size());
}

std::string collapse_spaces(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
        out += c;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

}  // namespace

std::string short_vendor(const std::string& vendor) {
    // A bracketed short name wins: "Advanced Micro Devices, Inc. [AMD/ATI]".
    if (auto open = vendor.rfind('['); open != std::string::npos && vendor.back() == ']')
        return vendor.substr(open + 1, vendor.size() - open - 2);
    std::string s = vendor;
    static constexpr std::array<const char*, 9> kSuffixes{
        " Corporation", " Technologies", " Electronics", " Co Ltd", " Co., Ltd.", ", Inc.", " Inc.", " Ltd.", " Limited"};
    for (const char* suffix : kSuffixes) erase_all(s, suffix);
    return collapse_spaces(s);
}

std::string trim_cpu_model(const std::string& model) {
    std::string s = model;
    for (const char* mark : {"(R)", "(r)", "(TM)", "(tm)", " CPU", " Processor"}) erase_all(s, mark);
    return collapse_spaces(s);
}

}  // namespace hwcomm
