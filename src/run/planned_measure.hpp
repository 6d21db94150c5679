#pragma once
// A planned record measured as the plan says (issue 21, item 4): a full sweep
// (its ladder, or the sizes its ladder group already chose), or a
// confirmation at a few sizes of its representative's curve. The engine
// judges a class's confirmations together (run/confirmation.hpp) once the
// last of them is measured, and measures each one outside its class's spread
// in full. The record says which: measured_as "full", "confirmed" or "promoted".
#include <optional>

#include "core/results.hpp"
#include "run/confirmation.hpp"
#include "run/device_loss.hpp"
#include "run/engine_hooks.hpp"
#include "run/plan.hpp"
#include "run/run_options.hpp"
#include "run/second_pass.hpp"

namespace hwcomm {

class Progress;

// `results`: the records measured so far (representatives, ladder groups).
// A confirmation comes back at its few sizes, measured_as "confirmed" and not
// yet judged (awaits_judgement); one whose representative failed or is
// missing comes back promoted, measured in full.
std::optional<Record> measure_as_planned(const Graph& graph, const PlannedRecord& planned, const RunOptions& options,
                                         const ResultsFile& results, Progress* progress, const EngineHooks* hooks,
                                         std::optional<DeviceFailure>& failure);

// Whether a record has a point to compare with: what a representative needs
// for its confirmations to be measured as planned rather than in full.
bool has_ok_point(const Record& r);

// A confirmation measured but not yet judged with its class.
bool awaits_judgement(const PlannedRecord& planned, const Record& record);

// A confirmation within its class's spread: its verdict kept in
// context.confirmation, the promotion's share of the progress skipped.
void keep_confirmed(Record& confirmation, const std::string& representative, const nlohmann::json& compared,
                    Progress* progress, const RunOptions& options);

// A confirmation outside its class's spread measured again and kept: within
// the second time (`second`), outside it again only where the first was not
// (noise), or within `beside` the representative measured again right after
// it. context.confirmation says which, with the first measurement.
void keep_measured_twice(Record& again, const std::string& representative, const nlohmann::json& first_measurement,
                         const ConfirmationVerdict& second, const std::optional<ConfirmationVerdict>& beside,
                         Progress* progress, const RunOptions& options);

// A confirmation outside its class's spread, measured in full: measured_as
// "promoted", the verdict in context.promotion.
std::optional<Record> measure_promoted(const Graph& graph, const PlannedRecord& planned, const RunOptions& options,
                                       const ResultsFile& results, Progress* progress, const EngineHooks* hooks,
                                       std::optional<DeviceFailure>& failure, const ConfirmationVerdict& verdict);

// The class's links (`links`, the representative first) measured once more
// at `pass.bytes`, one after another in that order (run/second_pass.hpp): one
// context.second_pass entry per link measured. Stops after a sticky device
// failure (`failure` says which; the links after it are left out); nullopt
// when the run is to stop.
std::optional<std::vector<nlohmann::json>> measure_second_pass(const Graph& graph,
                                                               const std::vector<const PlannedRecord*>& links,
                                                               const SecondPass& pass, const RunOptions& options,
                                                               const ResultsFile& results, const EngineHooks* hooks,
                                                               std::optional<DeviceFailure>& failure);

// The second pass a class needs (run/second_pass.hpp): `links` (its
// representative first, then the members of this judgement) narrowed to those
// kept (the representative, the members stored "confirmed"). Nullopt: none.
std::optional<SecondPass> second_pass_of(const ResultsFile& results, std::vector<const PlannedRecord*>& links);

// Each link's entry kept in its record's context.second_pass, its time added to its elapsed_s.
void keep_second_pass(ResultsFile& results, const std::vector<const PlannedRecord*>& links,
                      const std::vector<nlohmann::json>& entries);

}  // namespace hwcomm
