#pragma once
// The parts of `model check` share how a case is counted and how one record of
// transfers run together is predicted by a model that was not shown it.
#include <functional>
#include <string>

#include "core/graph.hpp"
#include "model/check.hpp"

namespace hwcomm::model::check_detail {

void summarize(ErrorSummary& summary);
void skip(ErrorSummary& summary, const std::string& why);

// Every measured lane of the multi-lane record `r` that `counted` accepts, at
// every size >= min_bytes, predicted with `m` (fitted without `r`), added to
// `lanes`; with `aggregates`, a record without load lanes also adds its
// aggregate (all lanes' bytes over the common window) per size.
void predict_record(const Model& m, const Graph* g, const Record& r, std::uint64_t min_bytes,
                    const std::function<bool(const LaneSpec&)>& counted, ErrorSummary& lanes,
                    ErrorSummary* aggregates);

// Leave-one-level-out and leave-one-member-out (check_held_out.cpp).
void leave_one_level_out(const Model& m, const Graph* g, const std::vector<NamedResults>& inputs,
                         std::uint64_t min_bytes, ErrorSummary& levels);
void leave_one_member_out(const Model& m, const Graph* g, const std::vector<NamedResults>& inputs,
                          std::uint64_t min_bytes, ErrorSummary& members);

}  // namespace hwcomm::model::check_detail
