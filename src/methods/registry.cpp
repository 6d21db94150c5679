#include <stdexcept>

#include "methods/characterizer.hpp"

namespace hwcomm {

void Registry::add(std::unique_ptr<Characterizer> method) {
    if (!method) throw std::invalid_argument("null characterizer");
    if (find(method->name())) throw std::invalid_argument("duplicate characterizer " + method->name());
    if (!catalog_.find(method->name()))
        throw std::invalid_argument("method " + method->name() +
                                    " has no row in the method catalog (src/catalog, DEVELOPERS.md: adding a method)");
    const auto known = option_specs();
    for (const auto& spec : method->options())
        for (const auto& k : known)
            if (k.name == spec.name && (k.type != spec.type || k.default_value != spec.default_value))
                throw std::invalid_argument("option --" + spec.name + " of " + method->name() +
                                            " differs from another method's");
    methods_.push_back(std::move(method));
}

std::vector<OptionSpec> Registry::option_specs() const {
    std::vector<OptionSpec> out;
    for (const auto& m : methods_)
        for (const auto& spec : m->options()) {
            bool seen = false;
            for (const auto& o : out) seen = seen || o.name == spec.name;
            if (!seen) out.push_back(spec);
        }
    return out;
}

const MethodRow& Registry::row(const Characterizer& method) const {
    const MethodRow* r = catalog_.find(method.name());
    if (!r) throw std::logic_error("method " + method.name() + " is registered without a row");
    return *r;
}

const Characterizer* Registry::find(const std::string& name) const {
    for (const auto& m : methods_)
        if (m->name() == name) return m.get();
    return nullptr;
}

}  // namespace hwcomm
