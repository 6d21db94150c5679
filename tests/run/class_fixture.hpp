#pragma once
// The class plan's tests: the run options of a 1 KiB .. 1 GiB ladder, and a
// fixture machine's plan for a scripted method over every GPU pair it applies
// to, classified and reduced to representatives and confirmations.
#include <functional>
#include <string>
#include <vector>

#include "classes/link_classes.hpp"
#include "discover/discover.hpp"
#include "planted_method.hpp"
#include "run/class_plan.hpp"
#include "run/run_options.hpp"

namespace hwcomm::test {

// 1 KiB .. 1 GiB; the ladder stops at the plateau.
inline RunOptions ladder_options() {
    RunOptions o;
    SweepOptions s;
    s.min_bytes = 1024;
    o.sweep = s;
    o.sizes = sweep_sizes(s);
    return o;
}

struct PlannedFixture {
    Graph graph;
    std::vector<PlannedRecord> plan;
    ClassMap classes;
};

// tests/fixtures/hwloc/`xml`'s GPU pairs measured by `method` ("planted" keys),
// those `keep` accepts (src id, dst id) when given.
inline PlannedFixture plan_on_fixture(const std::string& xml, const PlantedMethod& method,
                                      const std::function<bool(const std::string&, const std::string&)>& keep = {}) {
    PlannedFixture f;
    DiscoverOptions d;
    d.input_xml = std::string(HWCOMM_FIXTURES) + "/hwloc/" + xml;
    f.graph = discover_machine(d);
    std::vector<PlannedRecord> all;
    for (const auto& pair : method_pairs(f.graph, method))
        if (pair.applicability.ok && (!keep || keep(pair.src->id, pair.dst->id)))
            all.push_back({&method, pair.src, pair.dst, {}, record_key("planted", pair.src->id, pair.dst->id, {}),
                           pair.src->id, pair.dst->id, std::nullopt});
    f.classes = classify(f.graph, plan_members(all));
    f.plan = apply_classes(all, f.classes, f.graph, false);
    return f;
}

}  // namespace hwcomm::test
