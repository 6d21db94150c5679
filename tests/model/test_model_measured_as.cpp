// A confirmed record (issue 21: a few sizes of its representative's curve) is
// said so in the model and is no case of leave-one-size-out; a promoted one,
// a full sweep, is.
#include <gtest/gtest.h>

#include "io/results_file.hpp"
#include "model/check.hpp"
#include "model/fit.hpp"

using namespace hwcomm;
using namespace hwcomm::model;

namespace {

const std::string kH200x2 = std::string(HWCOMM_DOCS) + "/examples/h200x2/results-default.json.gz";

// The example with memcpy-peer gpu1->gpu0 as a confirmation of gpu0->gpu1
// (three of its sizes) and memcpy-d2d gpu1->gpu0 peer=on as a promotion.
ResultsFile planned_example() {
    ResultsFile f = load_results_file(kH200x2);
    for (Record& r : f.records) {
        if (r.key == "memcpy-peer|gpu1|gpu0|peer=on") {
            r.measured_as = "confirmed";
            std::erase_if(r.points, [](const Point& p) {
                return p.bytes != 1 && p.bytes != (1u << 20) && p.bytes != (64u << 20);
            });
        } else if (r.key == "memcpy-d2d|gpu1|gpu0|peer=on") {
            r.measured_as = "promoted";
        } else {
            r.measured_as = "full";
        }
    }
    return f;
}

}  // namespace

TEST(ModelMeasuredAs, AConfirmationIsSaidAndIsNoLeaveOneSizeOutCase) {
    const ResultsFile f = planned_example();
    const Model m = fit_model({{kH200x2, f}});
    ASSERT_NE(m.find("memcpy-peer|gpu1|gpu0|peer=on"), nullptr);
    EXPECT_EQ(m.find("memcpy-peer|gpu1|gpu0|peer=on")->measured_as, "confirmed");
    EXPECT_EQ(m.find("memcpy-d2d|gpu1|gpu0|peer=on")->measured_as, "promoted");
    EXPECT_EQ(model_from_json(model_to_json(m)).find("memcpy-peer|gpu1|gpu0|peer=on")->measured_as, "confirmed");
    const CheckReport r = check_model({{kH200x2, f}}, 64 * 1024, 64u << 20);
    EXPECT_EQ(r.sizes.cases.size(), 42u * 15u);  // every other curve's 15 sizes from 64 KiB
    for (const CheckCase& c : r.sizes.cases) EXPECT_NE(c.key, "memcpy-peer|gpu1|gpu0|peer=on");
}
