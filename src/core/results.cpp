#include "core/results.hpp"

namespace hwcomm {

const Record* ResultsFile::find(const std::string& key) const {
    for (const auto& r : records)
        if (r.key == key) return &r;
    return nullptr;
}

std::string record_key(const std::string& method, const std::string& src, const std::string& dst,
                       const std::map<std::string, std::string>& params) {
    std::string key = method + "|" + src + "|" + dst + "|";
    bool first = true;
    for (const auto& [k, v] : params) {
        if (!first) key += ",";
        key += k + "=" + v;
        first = false;
    }
    return key;
}

}  // namespace hwcomm
