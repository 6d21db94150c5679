#include "discover/cpu_list.hpp"

#include <algorithm>
#include <stdexcept>

namespace hwcomm {

std::vector<unsigned> indexes_from_mask(const std::vector<std::uint64_t>& words) {
    std::vector<unsigned> out;
    for (std::size_t w = 0; w < words.size(); ++w)
        for (unsigned b = 0; b < 64; ++b)
            if (words[w] >> b & 1u) out.push_back(static_cast<unsigned>(w * 64 + b));
    return out;
}

std::string format_index_list(std::vector<unsigned> indexes) {
    std::sort(indexes.begin(), indexes.end());
    indexes.erase(std::unique(indexes.begin(), indexes.end()), indexes.end());
    std::string out;
    for (std::size_t i = 0; i < indexes.size();) {
        std::size_t j = i;
        while (j + 1 < indexes.size() && indexes[j + 1] == indexes[j] + 1) ++j;
        if (!out.empty()) out += ',';
        out += std::to_string(indexes[i]);
        if (j > i) out += '-' + std::to_string(indexes[j]);
        i = j + 1;
    }
    return out;
}

std::vector<unsigned> parse_index_list(const std::string& text) {
    std::vector<unsigned> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find(',', pos);
        if (end == std::string::npos) end = text.size();
        const std::string part = text.substr(pos, end - pos);
        const std::size_t dash = part.find('-');
        try {
            std::size_t used = 0;
            const unsigned first = static_cast<unsigned>(std::stoul(part.substr(0, dash), &used));
            unsigned last = first;
            if (dash != std::string::npos) last = static_cast<unsigned>(std::stoul(part.substr(dash + 1)));
            else if (used != part.size()) throw std::invalid_argument(part);
            for (unsigned i = first; i <= last; ++i) out.push_back(i);
        } catch (const std::logic_error&) {
            throw std::invalid_argument("malformed index list '" + text + "'");
        }
        pos = end + 1;
    }
    return out;
}

}  // namespace hwcomm
