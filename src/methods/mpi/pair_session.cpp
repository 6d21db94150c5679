#include "methods/mpi/pair_session.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "methods/mpi/pair_end.hpp"
#include "platform/mpi/communicator.hpp"

namespace hwcomm {

namespace {

constexpr int kReplyTag = 7401;
// One sample lasts at least this long: far above the clock and barrier jitter.
constexpr double kMinSampleSeconds = 200e-6;

std::string param(const ParamSet& params, const char* key) {
    const auto it = params.find(key);
    return it == params.end() ? std::string() : it->second;
}

class MpiPairSession final : public TransferSession {
public:
    MpiPairSession(const Communicator& pair, const TransferSpec& spec, const LocalEnds& ends,
                   const std::string& peer_node)
        : pair_(pair), spec_(spec) {
        send_command(pair_, {PairCommand::Prepare});
        pair_.send_string(transfer_spec_to_json(spec).dump(), 1, kReplyTag);
        std::string mine;
        try {
            end_ = std::make_unique<PairEnd>(pair_, spec, ends);
        } catch (const std::exception& e) {
            mine = e.what();
        }
        const std::string status = exchange_status(pair_, mine, peer_node);
        if (!status.empty()) throw MeasurementError(status);
        end_->open_window();
        peer_context_ = nlohmann::json::parse(pair_.recv_string(1, kReplyTag));
    }
    ~MpiPairSession() override {
        try {
            send_command(pair_, {PairCommand::Close});
        } catch (...) {  // the record already carries the error that got us here
        }
        end_.reset();
    }

    void warmup(std::size_t bytes, const std::string&) override {
        // Calibrate the batch from the fastest of a few single transfers (as the CPU methods do).
        double single = 1e9;
        for (int i = 0; i < 3; ++i) single = std::min(single, run_both(bytes, 1, false).seconds);
        reps_[bytes] = static_cast<std::size_t>(
            std::clamp(std::ceil(1.2 * kMinSampleSeconds / std::max(single, 1e-9)), 1.0, 1e6));
    }
    void reset(std::size_t bytes, const std::string&) override {
        ++seed_;
        send_command(pair_, {PairCommand::Reset, 0, bytes, 0, seed_});
        end_->reset(bytes, seed_);
    }
    Sample measure(std::size_t bytes, const std::string&) override {
        const auto it = reps_.find(bytes);
        const std::size_t reps = it == reps_.end() ? 1 : it->second;
        const bool latency = spec_.op == "sendrecv" && spec_.direction == "uni" && bytes <= kLatencyMaxBytes;
        const TimedRun t = run_both(bytes, reps, latency);
        Sample s;
        s.seconds = t.seconds;
        s.repetitions = reps;
        s.bytes_per_rep = end_->bytes_per_rep(bytes);
        if (t.half_round_trip_s >= 0) s.metrics["latency_us"] = {t.half_round_trip_s * 1e6, "us"};
        return s;
    }
    std::string verify(std::size_t bytes, const std::string&) override {
        send_command(pair_, {PairCommand::Verify, 0, bytes});
        const std::string mine = end_->verify(bytes);
        const std::string peer = pair_.recv_string(1, kReplyTag);
        if (!mine.empty()) return "initiator: " + mine;
        return peer.empty() ? "" : "responder: " + peer;
    }
    nlohmann::json context() const override {
        return {{"initiator", end_->context()}, {"responder", peer_context_}, {"op", spec_.op},
                {"direction", spec_.direction}};
    }
    std::size_t max_bytes() const override { return std::min(end_->capacity(), peer_context_.value("capacity", std::size_t{0})); }

private:
    TimedRun run_both(std::size_t bytes, std::size_t reps, bool latency) {
        send_command(pair_, {PairCommand::Run, latency ? 1 : 0, bytes, reps});
        return end_->run(bytes, reps, latency);
    }

    const Communicator& pair_;
    TransferSpec spec_;
    std::unique_ptr<PairEnd> end_;
    nlohmann::json peer_context_;
    std::uint64_t seed_ = 0;
    std::map<std::size_t, std::size_t> reps_;
};

}  // namespace

std::unique_ptr<TransferSession> MpiPairMethod::prepare(const Graph&, const Vertex&, const Vertex&,
                                                        const ParamSet& params, std::size_t max_bytes,
                                                        const MethodOptions&) const {
    TransferSpec spec;
    spec.method = name_;
    spec.op = param(params, "op");
    spec.direction = param(params, "direction");
    spec.placement = param(params, "placement");
    spec.path = param(params, "path");
    spec.max_bytes = max_bytes;
    return std::make_unique<MpiPairSession>(pair_, spec, ends_, peer_node_);
}

void serve_pair(const Communicator& pair, const LocalEnds& ends, const std::string& peer_node) {
    std::unique_ptr<PairEnd> end;
    std::string reset_error;  // kept for the next Verify: the lockstep must go on
    for (;;) {
        const CommandMessage m = recv_command(pair);
        switch (m.command) {
        case PairCommand::Prepare: {
            const TransferSpec spec = transfer_spec_from_json(nlohmann::json::parse(pair.recv_string(0, kReplyTag)));
            std::string mine;
            try {
                end = std::make_unique<PairEnd>(pair, spec, ends);
            } catch (const std::exception& e) {
                mine = e.what();
            }
            if (!exchange_status(pair, mine, peer_node).empty()) {
                end.reset();
                break;
            }
            end->open_window();
            nlohmann::json c = end->context();
            c["capacity"] = end->capacity();
            pair.send_string(c.dump(), 0, kReplyTag);
            break;
        }
        case PairCommand::Reset:
            try {
                reset_error.clear();
                if (end) end->reset(m.bytes, m.seed);
            } catch (const std::exception& e) {
                reset_error = std::string("reset: ") + e.what();
            }
            break;
        case PairCommand::Run:
            if (end) end->run(m.bytes, m.repetitions, m.with_latency != 0);
            break;
        case PairCommand::Verify:
            pair.send_string(!reset_error.empty() ? reset_error : end ? end->verify(m.bytes) : "nothing prepared", 0,
                             kReplyTag);
            break;
        case PairCommand::Close:
            end.reset();
            break;
        case PairCommand::EndPair:
            return;
        }
    }
}

void end_pair(const Communicator& pair) { send_command(pair, {PairCommand::EndPair}); }

}  // namespace hwcomm
