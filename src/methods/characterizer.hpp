#pragma once
// A characterizer is one transfer method ("cpu-read", "memcpy-h2d", ...). The
// engine (src/run) asks it which vertex pairs it applies to, which parameter
// sets to measure on each, then prepares a TransferSession per record and
// times transfers of each size through it. Methods emit numbers; printers
// format them elsewhere.
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/method_catalog.hpp"
#include "core/graph.hpp"
#include "core/results.hpp"
#include "methods/method_options.hpp"
#include "methods/under_load.hpp"

namespace hwcomm {

// Ordered so the record key is stable: {"host_mem":"pinned","numa":"0"}.
using ParamSet = std::map<std::string, std::string>;

struct Applicability {
    bool ok = false;
    std::string reason;  // why not, when !ok; may say why yes
    static Applicability yes() { return {true, {}}; }
    static Applicability no(std::string why) { return {false, std::move(why)}; }
};

// Options a method may consult when it prepares: parsed once (the CLI, or a
// resumed file's meta.options: run/run_options.hpp), typed.
struct MethodOptions {
    TimingMode timing = TimingMode::Event;  // CUDA methods (--timing)
    unsigned max_workers = 0;           // CPU methods: 0 = all cores of the node
    bool pool_half_gpu_memory = false;  // size pools at half the GPU's memory
    OptionValues values;                // the options methods declare (Characterizer::options)
    std::vector<LoadSpec> under_load;   // --under-load SPECs, parsed
    // The SPECs' routes on the run's graph, resolved once before anything is
    // measured (resolve_run_options); they point into that graph.
    std::vector<LoadRoute> load_routes;
    // --transfers: the file's sets in their canonical text, and where they came
    // from (methods/transfers/transfer_set.hpp); empty without --transfers.
    std::string transfer_sets, transfer_sets_source;
};

// One timed sample. `seconds` covers `repetitions` back-to-back transfers of
// `bytes_per_rep` each (small sizes batch several transfers between one pair
// of timestamps); the engine divides. `extras` carries method-specific facts
// of this sample (duplex: per-direction seconds and start/stop skew).
// One lane's part of a sample (multi-lane measurements): its own seconds for
// the whole batch of `repetitions` transfers of `bytes_per_rep` each.
struct LaneSample {
    std::string label;
    double seconds = 0;
    double bytes_per_rep = 0;
};

struct Sample {
    double seconds = 0;
    std::size_t repetitions = 1;
    double bytes_per_rep = 0;  // bytes that crossed the path for one repetition
    std::map<std::string, double> extras;
    std::vector<LaneSample> lanes;  // empty for a one-lane measurement
    // Metrics besides bandwidth (cycles, ns, sectors, counts); the engine keeps
    // the median over the samples of each.
    std::map<std::string, Metric> metrics;
};

// Everything prepared for one (method, src, dst, params): buffers allocated at
// the largest size, streams, events, bound threads. Owned by the engine for
// the life of one record; releases everything in its destructor.
class TransferSession {
public:
    virtual ~TransferSession() = default;
    // Labels of the variants measured at each size (cpu-read: worker counts
    // "1","2",...). The engine measures each and reports the best. A method
    // without variants returns {""}.
    virtual std::vector<std::string> variants() const { return {""}; }
    // Sizes at which the engine measures every variant once per record and
    // keeps, for each size of the ladder, the winner of the nearest of them
    // (run/variant_choice.hpp). Empty: every variant at every size.
    virtual std::vector<std::size_t> variant_probe_sizes() const { return {}; }
    // Run the transfer untimed (caches, TLBs, lazy allocation, clocks up).
    virtual void warmup(std::size_t bytes, const std::string& variant) = 0;
    // Untimed, before every sample: write a fresh pattern into the source and
    // poison the destination (and, where the method needs it, put pages back or
    // drop caches), so that verify() sees the bytes of the next timed batch only.
    virtual void reset(std::size_t bytes, const std::string& variant) { (void)bytes; (void)variant; }
    // Take one sample. Throws MeasurementError on failure.
    virtual Sample measure(std::size_t bytes, const std::string& variant) = 0;
    // Called after every sample: checks that the destination holds the pattern
    // reset() wrote, i.e. that the timed transfers moved it. Returns an empty
    // string when correct, else what was wrong. Must not transfer anything.
    virtual std::string verify(std::size_t bytes, const std::string& variant) = 0;
    // The lanes of this measurement (empty: one lane, the record's own pair).
    virtual std::vector<LaneSpec> lanes() const { return {}; }
    // Before the points of one combination of the method's axes (Characterizer::axes).
    virtual void set_axes(const std::map<std::string, nlohmann::json>& values) { (void)values; }
    // Whether a combination of axis values applies to this session (false:
    // the engine skips its points; the first combination always applies).
    virtual bool axes_apply(const std::map<std::string, nlohmann::json>& values) const { (void)values; return true; }
    // Background lanes (role "load") that keep `routes` busy during every
    // sample (--under-load). Only lane-group sessions can; others throw
    // MeasurementError, which becomes the record's error.
    virtual void attach_load(const Graph& graph, const std::vector<LoadRoute>& routes, const MethodOptions& options);
    // Facts worth keeping with the record: placement, clocks, link state.
    virtual nlohmann::json context() const { return nlohmann::json::object(); }
    // Largest size this session can move (buffers, free memory).
    virtual std::size_t max_bytes() const = 0;
};

// One lane of a confirmation round: an ordered pair the method applies to.
struct RoundLane {
    const Vertex* src = nullptr;
    const Vertex* dst = nullptr;
};

class Characterizer {
public:
    virtual ~Characterizer() = default;
    virtual std::string name() const = 0;
    virtual std::string description() const = 0;
    // Vertex kinds at each end ("numa", "gpu"), for listing and filtering.
    virtual std::vector<VertexKind> src_kinds() const = 0;
    virtual std::vector<VertexKind> dst_kinds() const = 0;
    // Whether the method applies to this ordered pair, and why not.
    virtual Applicability applicable(const Graph& graph, const Vertex& src, const Vertex& dst) const = 0;
    // The parameter sets to measure on an applicable pair (host memory kind,
    // peer on/off, ...). At least one, possibly {{}}.
    virtual std::vector<ParamSet> parameter_sets(const Graph& graph, const Vertex& src, const Vertex& dst,
                                                 const MethodOptions& options) const = 0;
    // Names and meanings of the parameters, for `hwcomm list`.
    virtual std::map<std::string, std::string> parameter_docs() const { return {}; }
    // Options of this method (the CLI adds them to `hwcomm run`, the results
    // file keeps their values, `hwcomm list` prints them).
    virtual std::vector<OptionSpec> options() const { return {}; }
    // Axes besides bytes: every point takes one value of each.
    virtual std::vector<AxisSpec> axes() const { return {}; }
    // Which of the run's sizes this method measures.
    virtual SizePolicy size_policy() const { return {}; }
    // Allocates everything for transfers up to `max_bytes` (the session may
    // cap it lower; see TransferSession::max_bytes). Throws MeasurementError
    // when the pair cannot be prepared (allocation, placement, device error).
    virtual std::unique_ptr<TransferSession> prepare(const Graph& graph, const Vertex& src, const Vertex& dst,
                                                     const ParamSet& params, std::size_t max_bytes,
                                                     const MethodOptions& options) const = 0;

    // Confirmation rounds (run/confirmation_rounds.hpp): whether records with
    // these parameters can be measured several ordered pairs at once, each pair
    // a lane with its own time and data check (copies between GPUs whose
    // routes share no link). False: its pairs are confirmed one at a time.
    virtual bool measures_rounds(const ParamSet& params) const { (void)params; return false; }
    // Whether a GPU of a round either sends or receives, never both: copies
    // issued by the reader, whose read requests cross the link against the
    // data the same GPU sends in another lane (nvidia-h200-x2, 5236e92: two
    // opposite 64 MiB copy-kernel pulls moved 0.90 each of one alone, TMA
    // pulls 0.87-0.89, where copy engines and pushes kept 0.98-0.99).
    virtual bool rounds_one_way(const ParamSet& params) const { (void)params; return false; }
    // One round's session: a lane per pair, labelled "src->dst". Only called
    // when measures_rounds(params); throws MeasurementError as prepare does.
    virtual std::unique_ptr<TransferSession> prepare_round(const Graph& graph, const std::vector<RoundLane>& lanes,
                                                           const ParamSet& params, std::size_t max_bytes,
                                                           const MethodOptions& options) const;
};

// Explicit registration: each method family has a register_*() function that
// adds its methods; the CLI calls them (no static-initialisation tricks).
// Every method registers against its row of the registry's catalog.
class Registry {
public:
    Registry() : catalog_(builtin_catalog()) {}
    // A test's own catalog (builtin_catalog().with(rows of its fake methods)).
    explicit Registry(MethodCatalog catalog) : catalog_(std::move(catalog)) {}
    // Throws std::invalid_argument for a method without a row in the catalog.
    void add(std::unique_ptr<Characterizer> method);
    const Characterizer* find(const std::string& name) const;
    const MethodCatalog& catalog() const { return catalog_; }
    // The row of a registered method (add() made sure there is one).
    const MethodRow& row(const Characterizer& method) const;
    const std::vector<std::unique_ptr<Characterizer>>& all() const { return methods_; }
    // Every method's options, once each (methods that share an option must
    // declare it alike; add() throws std::invalid_argument otherwise).
    std::vector<OptionSpec> option_specs() const;

private:
    MethodCatalog catalog_;
    std::vector<std::unique_ptr<Characterizer>> methods_;
};

}  // namespace hwcomm
