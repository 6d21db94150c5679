#include <stdexcept>

#include "methods/characterizer.hpp"

namespace hwcomm {

void Registry::add(std::unique_ptr<Characterizer> method) {
    if (!method) throw std::invalid_argument("null characterizer");
    if (find(method->name())) throw std::invalid_argument("duplicate characterizer " + method->name());
    methods_.push_back(std::move(method));
}

const Characterizer* Registry::find(const std::string& name) const {
    for (const auto& m : methods_)
        if (m->name() == name) return m.get();
    return nullptr;
}

}  // namespace hwcomm
