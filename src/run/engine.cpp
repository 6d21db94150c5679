#include "run/engine.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <numeric>
#include <set>

#include "run/confirmation_rounds.hpp"
#include "run/device_loss.hpp"
#include "run/planned_measure.hpp"
#include "run/progress.hpp"
#include "run/record_measure.hpp"
#include "run/representative_recheck.hpp"
#include "run/size_plan.hpp"

namespace hwcomm {

namespace {

// A confirmation measured and held until the last of its class is.
struct HeldConfirmation {
    const PlannedRecord* planned;
    Record record;
    bool counts_progress = true;  // a round's lanes after its first share its progress units
};

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

class PlanRunner {
public:
    PlanRunner(const Graph& graph, const std::vector<PlannedRecord>& plan, const RunOptions& options,
               ResultsFile& results, const EngineHooks& hooks)
        : graph_(graph), options_(options), results_(results), hooks_(hooks) {
        const auto pending = [&](const PlannedRecord& p) {
            const Record* done = results.find(p.key);
            return !done || is_not_measured(*done);
        };
        for (const auto& p : plan) {
            if (p.round.empty()) {
                planned_by_key_[p.key] = &p;
                if (pending(p)) todo_.push_back(&p);
                continue;
            }
            std::vector<PlannedRecord> left;  // a resumed round measures the lanes not yet kept
            for (const PlannedRecord& lane : p.round)
                if (pending(lane)) left.push_back(lane);
            if (left.size() == p.round.size()) todo_.push_back(&p);
            else if (!left.empty()) {
                PlannedRecord rest = make_round(left, 0);
                rest.key = p.key;  // the plan's estimate and admission are the round's
                todo_.push_back(&owned_.emplace_back(std::move(rest)));
            }
        }
        for (std::size_t i = 0; i < todo_.size(); ++i)
            if (todo_[i]->measured_as == "confirmed") last_of_class_[todo_[i]->representative_key] = i;
    }

    std::size_t run() {
        std::vector<double> planned(todo_.size(), 0.0);  // the ETA's weights: the plan's estimates
        for (std::size_t i = 0; hooks_.progress && hooks_.estimate && i < todo_.size(); ++i)
            planned[i] = hooks_.estimate(*todo_[i]);
        Progress progress(hooks_.progress, todo_.size() * options_.sizes.size(),
                          std::accumulate(planned.begin(), planned.end(), 0.0));
        progress_ = &progress;
        for (std::size_t i = 0; i < todo_.size(); ++i) {
            if (!step(i)) break;
            const PlannedRecord* p = todo_[i];
            const bool last = p->measured_as == "confirmed" && last_of_class_.at(p->representative_key) == i;
            if ((last || p->measured_as == "covered") && !judge_class_of(p->representative_key, i)) break;
            progress.step_done(planned[i]);
        }
        return measured_;  // held confirmations of a run cut short are not kept: --resume measures them
    }

private:
    void finish(Record record) {
        store_record(results_, std::move(record));
        ++measured_;
        if (hooks_.on_record) hooks_.on_record(results_.records.back());
    }

    // After a sticky device failure: every GPU record after todo_[i] is kept "not measured".
    void note_loss(const std::optional<DeviceFailure>& failure, std::size_t i, const std::string& key) {
        if (loss_ || !failure || !failure->context_lost) return;
        loss_ = DeviceLoss{*failure, key};
        const std::vector<const PlannedRecord*> rest(todo_.begin() + static_cast<std::ptrdiff_t>(i) + 1, todo_.end());
        const std::size_t n = keep_gpu_records_not_measured(rest, *loss_, results_);
        if (hooks_.on_device_lost) hooks_.on_device_lost(describe_loss(*loss_, n));
    }

    // Measures todo_[i] (or skips it); false: stop the run.
    bool step(std::size_t i) {
        const PlannedRecord* p = todo_[i];
        if (loss_ && needs_gpu(*p)) {
            progress_->skip_units(options_.sizes.size());
            return true;  // kept as "not measured" when the context was lost
        }
        if (hooks_.stop_after_records && measured_ >= hooks_.stop_after_records) return false;
        if (hooks_.should_stop && hooks_.should_stop()) return false;
        if (hooks_.admit && !hooks_.admit(*p)) {
            progress_->skip_units(options_.sizes.size());
            return true;  // left for --resume
        }
        if (p->measured_as == "covered") {
            if (!pair_promoted(results_, p->src_id, p->dst_id)) {
                progress_->skip_units(options_.sizes.size());
                return true;  // its links were confirmed by other members
            }
            p = &owned_.emplace_back(*p);  // its pair is unlike its class: confirmed after all
            owned_.back().measured_as = "confirmed";
        }
        const double estimate = hooks_.estimate ? hooks_.estimate(*p) : -1;
        std::optional<DeviceFailure> failure;
        const auto started = std::chrono::steady_clock::now();
        if (!p->round.empty()) return step_round(i, *p, estimate);
        std::optional<Record> record = measure_as_planned(graph_, *p, options_, results_, progress_, &hooks_, failure);
        if (!record) return false;
        // The record's whole cost (set-up, warm-ups, checks, samples; a promotion's
        // confirmation too): what a run's length is made of, beside what was expected.
        record->context["elapsed_s"] = seconds_since(started);
        if (estimate >= 0) record->context["estimate_s"] = estimate;
        if (awaits_judgement(*p, *record))
            held_[p->representative_key].push_back({p, std::move(*record)});
        else
            finish(std::move(*record));
        note_loss(failure, i, p->key);
        return true;
    }

    // A round: its lanes held as the class's confirmations, each with its
    // share of the round's time; with no representative to compare with,
    // each lane measured alone as planned (and promoted).
    bool step_round(std::size_t i, const PlannedRecord& round, double estimate) {
        const Record* rep = results_.find(round.representative_key);
        if (!rep || !has_ok_point(*rep)) return confirm_lanes_alone(i, round, "");
        std::optional<DeviceFailure> failure;
        const auto started = std::chrono::steady_clock::now();
        std::optional<Record> measured = measure_as_planned(graph_, round, options_, results_, progress_, &hooks_, failure);
        if (!measured) return false;
        note_loss(failure, i, round.key);
        if (!std::any_of(measured->points.begin(), measured->points.end(),
                         [](const Point& p) { return p.status == "ok"; }) &&
            !(loss_ && needs_gpu(round)))
            return confirm_lanes_alone(i, round,
                                       measured->error.empty() ? "no point of the round was measured" : measured->error);
        const double lanes = static_cast<double>(round.round.size());
        std::vector<Record> split = split_round(*measured, round);
        std::vector<std::size_t> failed;  // lanes with a failed point: one lane's bad data fails the round's point
        for (std::size_t k = 0; k < split.size(); ++k) {
            const bool bad = std::any_of(split[k].points.begin(), split[k].points.end(),
                                         [](const Point& p) { return p.status != "ok"; });
            if (bad && !(loss_ && needs_gpu(round))) {
                failed.push_back(k);
                continue;
            }
            split[k].context["elapsed_s"] = seconds_since(started) / lanes;
            if (estimate >= 0) split[k].context["estimate_s"] = estimate / lanes;
            held_[round.representative_key].push_back({&round.round[k], std::move(split[k]), k == 0});
        }
        for (const std::size_t k : failed) {
            std::string why;
            for (const Point& p : split[k].points)
                if (p.status != "ok" && why.empty()) why = p.error.empty() ? "a point of the round failed" : p.error;
            if (!confirm_lane_alone(i, round, k, why)) return false;
        }
        return true;
    }

    // A round that measured nothing (its session could not be prepared, every
    // point failed), or whose representative has no point to compare with:
    // its lanes measured one at a time, each saying why (`why`; "": the
    // representative's failure, which their promotion names).
    bool confirm_lanes_alone(std::size_t i, const PlannedRecord& round, const std::string& why) {
        for (std::size_t k = 0; k < round.round.size(); ++k)
            if (!confirm_lane_alone(i, round, k, why)) return false;
        return true;
    }

    // One lane of a round measured alone as a confirmation, saying why.
    bool confirm_lane_alone(std::size_t i, const PlannedRecord& round, std::size_t k, const std::string& why) {
        const PlannedRecord& lane = round.round[k];
        if (finished_as_lost(lane)) return true;
        std::optional<DeviceFailure> failure;
        std::optional<Record> r = measure_as_planned(graph_, lane, options_, results_, nullptr, &hooks_, failure);
        if (!r) return false;
        if (!why.empty()) r->context["round_failed"] = why;
        note_loss(failure, i, lane.key);
        if (awaits_judgement(lane, *r)) held_[round.representative_key].push_back({&lane, std::move(*r), k == 0});
        else finish(std::move(*r));
        return true;
    }

    // The class's held confirmations judged together: those within its spread
    // kept; each one outside measured a second time, kept if it then lies
    // within, else measured in full. False: stop the run.
    // `at`: the position in todo_ the run has reached (a device loss keeps what follows it).
    bool judge_class_of(const std::string& representative_key, std::size_t at) {
        const auto it = held_.find(representative_key);
        if (it == held_.end()) return true;
        std::vector<HeldConfirmation> group = std::move(it->second);
        held_.erase(it);
        // Copies: storing records below moves those of results_.
        const Record representative = *results_.find(representative_key);  // held: it has ok points
        std::vector<Record> earlier, firsts;
        for (const Record* r : kept_confirmations(results_, representative_key)) earlier.push_back(*r);
        for (const HeldConfirmation& h : group) firsts.push_back(h.record);
        const std::vector<ConfirmationVerdict> verdicts =
            judge_class(pointers(firsts), pointers(earlier), representative);
        std::vector<std::size_t> outside;
        for (std::size_t k = 0; k < group.size(); ++k) {
            if (verdicts[k].promote) {
                outside.push_back(k);
                continue;
            }
            keep_confirmed(group[k].record, representative_key, verdicts[k].compared,
                           group[k].counts_progress ? progress_ : nullptr, options_);
            finish(std::move(group[k].record));
        }
        for (const std::size_t k : outside) {
            // The class as first measured, this member excepted, and the earlier ones.
            std::vector<const Record*> others = pointers(earlier);
            for (std::size_t j = 0; j < firsts.size(); ++j)
                if (j != k) others.push_back(&firsts[j]);
            if (!settle(*group[k].planned, group[k].record, verdicts[k], others, representative, at)) return false;
        }
        return recheck_representative(representative_key, verdicts, at) &&
               measure_class_again(representative_key, group, at);
    }

    // The class's kept links measured once more where they spread beyond the
    // tolerance (run/second_pass.hpp), once per class and run. False: stop the run.
    bool measure_class_again(const std::string& key, const std::vector<HeldConfirmation>& group, std::size_t at) {
        const auto rep = planned_by_key_.find(key);
        if (rep == planned_by_key_.end() || loss_ || second_passed_.count(key)) return true;
        std::vector<const PlannedRecord*> links{rep->second};
        for (const HeldConfirmation& h : group) links.push_back(h.planned);
        const std::optional<SecondPass> pass = second_pass_of(results_, links);
        if (!pass) return true;
        second_passed_.insert(key);
        std::optional<DeviceFailure> failure;
        const auto entries = measure_second_pass(graph_, links, *pass, options_, results_, &hooks_, failure);
        if (!entries) return false;
        keep_second_pass(results_, links, *entries);
        if (hooks_.on_second_pass) hooks_.on_second_pass(second_pass_line(key, *pass, *entries));
        note_loss(failure, at, key);
        return true;
    }

    // The representative its confirmations put outside the class measured
    // again at their sizes (run/representative_recheck.hpp); the result kept
    // in its record's context.recheck, its time added to its elapsed_s.
    // False: stop the run.
    bool recheck_representative(const std::string& key, const std::vector<ConfirmationVerdict>& verdicts,
                                std::size_t at) {
        const nlohmann::json first = representative_outside(verdicts);
        if (first.empty()) return true;
        bool stop = false;
        double spent = 0;
        const std::optional<Record> again = measure_representative_again(key, at, spent, stop);
        if (!again) return !stop;
        // Pointers: nothing is stored before the judgement.
        keep_recheck(key, judge_recheck(first, *again, kept_confirmations(results_, key)), spent);
        return true;
    }

    // The representative measured once more as a confirmation of itself (the
    // confirmations' sizes), once per run (a class judged again for covered
    // members asks again). Nothing when it was measured again already, is
    // not a record of this plan or the GPUs are lost; `stop`: stop the run.
    std::optional<Record> measure_representative_again(const std::string& key, std::size_t at, double& spent,
                                                       bool& stop) {
        const auto planned = planned_by_key_.find(key);
        if (planned == planned_by_key_.end() || (loss_ && needs_gpu(*planned->second))) return std::nullopt;
        if (!rechecked_.insert(key).second) return std::nullopt;
        if ((stop = hooks_.should_stop && hooks_.should_stop())) return std::nullopt;
        PlannedRecord again_plan = *planned->second;
        again_plan.measured_as = "confirmed";
        again_plan.representative_key = key;
        std::optional<DeviceFailure> failure;
        const auto started = std::chrono::steady_clock::now();
        std::optional<Record> again = measure_as_planned(graph_, again_plan, options_, results_, nullptr, &hooks_, failure);
        stop = !again;
        if (!again) return std::nullopt;
        spent = seconds_since(started);
        note_loss(failure, at, key);
        return again;
    }

    // context.recheck kept in the representative's record, its time in its elapsed_s.
    void keep_recheck(const std::string& key, nlohmann::json recheck, double spent) {
        recheck["elapsed_s"] = spent;
        const auto rep = std::find_if(results_.records.begin(), results_.records.end(),
                                      [&](const Record& r) { return r.key == key; });
        if (rep == results_.records.end()) return;
        rep->context["recheck"] = std::move(recheck);
        rep->context["elapsed_s"] = rep->context.value("elapsed_s", 0.0) + spent;
        if (hooks_.on_recheck) hooks_.on_recheck(*rep);
    }

    // A member outside the representative's sweep twice where the sweep was
    // its only reference (run/representative_recheck.hpp): the member's
    // second measurement judged beside the representative measured again now.
    // Nothing when the representative was not measured again, or its second
    // measurement failed or had no size in common: the member is then promoted as before.
    std::optional<ConfirmationVerdict> beside_representative_again(const Record& member, const ConfirmationVerdict& second,
                                                                   const Record& representative, std::size_t at,
                                                                   bool& stop) {
        double spent = 0;
        const std::optional<Record> again = measure_representative_again(representative.key, at, spent, stop);
        if (!again) return std::nullopt;
        ConfirmationVerdict beside = judge_confirmation(member, *again);
        nlohmann::json recheck = judge_pair_recheck(second, *again, beside);
        const std::string verdict = recheck.value("verdict", "");
        keep_recheck(representative.key, std::move(recheck), spent);
        if (verdict != "within" && verdict != "outside again") return std::nullopt;
        return beside;
    }

    static std::vector<const Record*> pointers(const std::vector<Record>& records) {
        std::vector<const Record*> out;
        for (const Record& r : records) out.push_back(&r);
        return out;
    }

    // After the GPUs were lost a GPU record is kept "not measured" (true).
    bool finished_as_lost(const PlannedRecord& p) {
        if (!loss_ || !needs_gpu(p)) return false;
        finish(not_measured_record(p, *loss_));
        return true;
    }

    // A confirmation outside its class: a failed size promotes at once; a
    // difference is measured again (per-session noise seldom repeats: the
    // staged peer copies of nvidia-h200-x4 moved 13-19 us at 1 B between
    // runs on the same pair) and promotes only when the second measurement
    // lies outside too, at a size where the first did and on the same side
    // (outside_again). False: stop the run.
    bool settle(const PlannedRecord& p, const Record& first, ConfirmationVerdict verdict,
                const std::vector<const Record*>& others, const Record& representative, std::size_t at) {
        double spent = first.context.value("elapsed_s", 0.0);
        if (finished_as_lost(p)) return true;
        if (hooks_.should_stop && hooks_.should_stop()) return false;
        std::optional<DeviceFailure> failure;
        if (!verdict.failed) {
            const auto started = std::chrono::steady_clock::now();
            std::optional<Record> again = measure_as_planned(graph_, p, options_, results_, nullptr, &hooks_, failure);
            if (!again) return false;
            spent += seconds_since(started);
            note_loss(failure, at, p.key);
            if (finished_as_lost(p)) return true;
            const ConfirmationVerdict second = judge_class({&*again}, others, representative).at(0);
            const nlohmann::json first_measurement = {{"reason", verdict.reason}, {"compared", verdict.compared}};
            bool keep = !second.promote || !outside_again(verdict, second);
            std::optional<ConfirmationVerdict> beside;
            if (!keep && !second.failed && judged_by_representative_alone(second)) {
                bool stop = false;
                beside = beside_representative_again(*again, second, representative, at, stop);
                if (stop) return false;
                if (finished_as_lost(p)) return true;  // lost while the representative was measured again
                keep = beside && !outside_again(second, *beside);
            }
            if (keep) {
                again->context["elapsed_s"] = spent;
                if (first.context.contains("estimate_s")) again->context["estimate_s"] = first.context["estimate_s"];
                keep_measured_twice(*again, representative.key, first_measurement, second, beside, progress_, options_);
                finish(std::move(*again));
                return true;
            }
            verdict.reason = second.reason + "; measured twice, the first time " + verdict.reason;
            if (beside) verdict.reason += "; beside the representative measured again right after, " + beside->reason;
            verdict.compared = second.compared;
            verdict.first_measurement = first_measurement;
            if (hooks_.should_stop && hooks_.should_stop()) return false;
        }
        const auto started = std::chrono::steady_clock::now();
        std::optional<Record> full = measure_promoted(graph_, p, options_, results_, progress_, &hooks_, failure, verdict);
        if (!full) return false;
        full->context["elapsed_s"] = spent + seconds_since(started);
        if (first.context.contains("estimate_s")) full->context["estimate_s"] = first.context["estimate_s"];
        finish(std::move(*full));
        note_loss(failure, at, p.key);  // a loss here: every later GPU record is not measured
        return true;
    }

    const Graph& graph_;
    const RunOptions& options_;
    ResultsFile& results_;
    const EngineHooks& hooks_;
    std::deque<PlannedRecord> owned_;  // rounds cut by a resume, covered members confirmed after all
    std::vector<const PlannedRecord*> todo_;
    std::map<std::string, std::size_t> last_of_class_;  // representative key -> its last confirmation in todo_
    std::map<std::string, std::vector<HeldConfirmation>> held_;
    std::map<std::string, const PlannedRecord*> planned_by_key_;  // records measured alone (representatives among them)
    std::set<std::string> rechecked_;  // representatives measured again in this run
    std::set<std::string> second_passed_;  // representatives whose class was measured twice in this run
    Progress* progress_ = nullptr;
    std::size_t measured_ = 0;
    std::optional<DeviceLoss> loss_;  // set once: the sticky failure that ended the GPU part
};

}  // namespace

std::size_t run_plan(const Graph& graph, const std::vector<PlannedRecord>& plan, const RunOptions& options,
                     ResultsFile& results, const EngineHooks& hooks) {
    return PlanRunner(graph, plan, options, results, hooks).run();
}

}  // namespace hwcomm
