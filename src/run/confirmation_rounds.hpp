#pragma once
// Confirmations that grow with the links, not with the pairs (issue 21, item
// 2: the plan no faster than linear in GPUs). One at a time, a class's
// confirmations are one per ordered pair: 54 of the 56 GPU pairs of an 8-GPU
// NVSwitch node per method, 238 of 240 on 16 GPUs.
//
// Rounds: a method that can measure several pairs at once
// (Characterizer::measures_rounds: copies between GPUs) confirms its pairs in
// rounds, each a set of lanes started together in which no GPU sends twice or
// receives twice and no two routes cross the same link the same way; on a
// fabric of full-duplex links each lane moves what it would alone. n GPUs
// whose every pair is in one class need n - 1 rounds (i -> i + k mod n);
// copies issued by the reader take rounds in which a GPU sends or receives,
// not both (about twice as many).
// Each lane is judged with its class as a confirmation is, and one outside is
// measured again alone before it is promoted: a lane slowed by its round is
// told from an unlike link.
//
// Covers: a method that cannot confirms only the members needed so that every
// link (and direction) any member's route crosses is crossed by a measured
// record of its class; the others are "covered", measured as confirmations
// only when a record of their pair was promoted in the run (a round lane, a
// cover member, another method). Every pair is still looked at by the rounds,
// every link by every method.
#include <cstddef>
#include <set>
#include <utility>
#include <vector>

#include "core/graph.hpp"
#include "core/results.hpp"
#include "methods/characterizer.hpp"
#include "run/plan.hpp"

namespace hwcomm {

// A link crossed one way: (graph edge index, from its `a` end to `b`).
using DirectedLink = std::pair<std::size_t, bool>;

// The links (not internal edges) a record's data crosses from src to dst;
// empty when no route. With peer access off ("peer":"off") a copy between
// GPUs is staged through host memory: the source's route to its local NUMA
// node, then that node's route to the destination.
std::vector<DirectedLink> route_links(const Graph& graph, const Vertex& src, const Vertex& dst,
                                      const ParamSet& params = {});

// `members` (pair records of one class group) in rounds, as indexes into
// `members`: in each, every vertex at most once as a source and once as a
// destination, and no directed link twice. Deterministic: members taken by
// their shift (destination's place minus source's, modulo the vertices
// involved), then first fit.
// `one_way` (Characterizer::rounds_one_way): no vertex both a source and a
// destination in one round.
std::vector<std::vector<std::size_t>> plan_rounds(const Graph& graph, const std::vector<const PlannedRecord*>& members,
                                                  bool one_way = false);

// Which of `members` to confirm (true) so that every directed link their
// routes cross is crossed by one of them or is in `measured` (the links of
// the group's full records). Greedy: the member adding most links first,
// ties in order. A member without a route is always confirmed.
std::vector<bool> covering_members(const Graph& graph, const std::vector<const PlannedRecord*>& members,
                                   const std::set<DirectedLink>& measured);

// Whether a record of the pair src -> dst was promoted: a covered member is
// then measured (and owed by the run) after all.
bool pair_promoted(const ResultsFile& results, const std::string& src, const std::string& dst);

// A round's planned record: the members as lanes (`round`), measured_as
// "confirmed", the members' method, params, class and representative.
PlannedRecord make_round(const std::vector<PlannedRecord>& members, std::size_t number);

// The label of a member's lane ("gpu0->gpu1").
std::string lane_label(const PlannedRecord& member);

// A measured round as one confirmed record per member: its lane's time and
// bandwidth at each point, the round's status, checks and context, and
// context.round (the lanes measured together). A lane missing from a point is
// an error point of its record.
std::vector<Record> split_round(const Record& round, const PlannedRecord& planned);

}  // namespace hwcomm
