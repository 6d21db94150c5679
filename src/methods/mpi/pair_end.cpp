#include "methods/mpi/pair_end.hpp"

#include <algorithm>
#include <climits>

#include "core/error.hpp"
#include "platform/clock.hpp"
#include "platform/mpi/communicator.hpp"
#include "platform/mpi/mpi_error.hpp"

namespace hwcomm {

namespace {

constexpr int kDataTag = 7301, kAckTag = 7302, kStatusTag = 7303;
constexpr std::size_t kMaxMessage = std::size_t{1} << 30;  // MPI counts are int

int count(std::size_t bytes) { return static_cast<int>(bytes); }

}  // namespace

std::string exchange_status(const Communicator& pair, const std::string& mine, const std::string& peer_node) {
    std::string peer;
    if (pair.rank() == 0) {
        pair.send_string(mine, 1, kStatusTag);
        peer = pair.recv_string(1, kStatusTag);
    } else {
        peer = pair.recv_string(0, kStatusTag);
        pair.send_string(mine, 0, kStatusTag);
    }
    if (!mine.empty()) return mine;
    return peer.empty() ? "" : peer_node + ": " + peer;
}

PairEnd::PairEnd(const Communicator& pair, const TransferSpec& spec, const LocalEnds& ends)
    : pair_(pair), spec_(spec), initiator_(pair.rank() == 0), peer_(1 - pair.rank()) {
    const std::size_t bytes = std::min(spec.max_bytes, kMaxMessage);
    if (spec.method == "mpi-gpu") {
        if (ends.gpu_ordinal < 0) throw MeasurementError("no GPU on node " + ends.node);
        endpoint_ = ends.gpu_id;
        buffers_ = make_gpu_buffers(ends.gpu_ordinal, bytes, spec.path == "staged");
    } else {
        const bool far = spec.placement == "far";
        if (far && ends.far_numa < 0) throw MeasurementError("node " + ends.node + " has a single NUMA node");
        endpoint_ = far ? ends.far_numa_id : ends.near_numa_id;
        buffers_ = make_host_buffers(far ? ends.far_numa : ends.near_numa, bytes);
    }
}

PairEnd::~PairEnd() {
    if (window_ != MPI_WIN_NULL) MPI_Win_free(&window_);  // collective: the peer frees its side on Close too
}

void PairEnd::open_window() {
    if (spec_.op != "put") return;
    mpi_check(MPI_Win_create(buffers_->recv_data(), static_cast<MPI_Aint>(buffers_->capacity()), 1, MPI_INFO_NULL,
                             pair_.raw(), &window_),
              "MPI_Win_create");
    mpi_check(MPI_Win_set_errhandler(window_, MPI_ERRORS_RETURN), "MPI_Win_set_errhandler");
}

std::size_t PairEnd::capacity() const { return std::min(buffers_->capacity(), kMaxMessage); }

double PairEnd::bytes_per_rep(std::size_t bytes) const {
    return static_cast<double>(bytes) * (spec_.direction == "bi" ? 2.0 : 1.0);
}

bool PairEnd::receives() const { return !initiator_ || spec_.direction == "bi"; }

void PairEnd::reset(std::size_t bytes, std::uint64_t initiator_seed) {
    my_seed_ = initiator_ ? initiator_seed : initiator_seed + 1;
    peer_seed_ = initiator_ ? initiator_seed + 1 : initiator_seed;
    buffers_->fill_send(bytes, my_seed_);
    buffers_->poison_recv(bytes, peer_seed_);
}

std::string PairEnd::verify(std::size_t bytes) {
    if (!receives()) return "";
    return buffers_->check_recv(bytes, peer_seed_);
}

// Each side sends its own buffer and receives the other's: latency of one message of `bytes`.
void PairEnd::run_pingpong(std::size_t bytes, std::size_t repetitions) {
    for (std::size_t i = 0; i < repetitions; ++i) {
        if (initiator_) {
            buffers_->before_send(bytes);
            mpi_check(MPI_Send(buffers_->send_data(), count(bytes), MPI_BYTE, peer_, kDataTag, pair_.raw()), "MPI_Send");
            mpi_check(MPI_Recv(buffers_->recv_data(), count(bytes), MPI_BYTE, peer_, kDataTag, pair_.raw(),
                               MPI_STATUS_IGNORE), "MPI_Recv");
            buffers_->after_recv(bytes);
        } else {
            mpi_check(MPI_Recv(buffers_->recv_data(), count(bytes), MPI_BYTE, peer_, kDataTag, pair_.raw(),
                               MPI_STATUS_IGNORE), "MPI_Recv");
            buffers_->after_recv(bytes);
            buffers_->before_send(bytes);
            mpi_check(MPI_Send(buffers_->send_data(), count(bytes), MPI_BYTE, peer_, kDataTag, pair_.raw()), "MPI_Send");
        }
    }
}

// uni: the initiator streams, the responder receives, then a zero-byte ack
// closes the batch (the initiator's clock then covers the last arrival).
// bi: both send and receive at once (Isend/Irecv), then the ack.
void PairEnd::run_sendrecv(std::size_t bytes, std::size_t repetitions) {
    const bool bi = spec_.direction == "bi";
    for (std::size_t i = 0; i < repetitions; ++i) {
        if (bi) {
            MPI_Request requests[2];
            mpi_check(MPI_Irecv(buffers_->recv_data(), count(bytes), MPI_BYTE, peer_, kDataTag, pair_.raw(), &requests[0]),
                      "MPI_Irecv");
            buffers_->before_send(bytes);
            mpi_check(MPI_Isend(buffers_->send_data(), count(bytes), MPI_BYTE, peer_, kDataTag, pair_.raw(), &requests[1]),
                      "MPI_Isend");
            mpi_check(MPI_Waitall(2, requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
            buffers_->after_recv(bytes);
        } else if (initiator_) {
            buffers_->before_send(bytes);
            mpi_check(MPI_Send(buffers_->send_data(), count(bytes), MPI_BYTE, peer_, kDataTag, pair_.raw()), "MPI_Send");
        } else {
            mpi_check(MPI_Recv(buffers_->recv_data(), count(bytes), MPI_BYTE, peer_, kDataTag, pair_.raw(),
                               MPI_STATUS_IGNORE), "MPI_Recv");
            buffers_->after_recv(bytes);
        }
    }
    if (initiator_)
        mpi_check(MPI_Recv(nullptr, 0, MPI_BYTE, peer_, kAckTag, pair_.raw(), MPI_STATUS_IGNORE), "MPI_Recv (ack)");
    else
        mpi_check(MPI_Send(nullptr, 0, MPI_BYTE, peer_, kAckTag, pair_.raw()), "MPI_Send (ack)");
}

// One access epoch between two fences: `repetitions` puts of `bytes` into the
// peer's window (both ways for bi); the closing fence completes them on both sides.
void PairEnd::run_put(std::size_t bytes, std::size_t repetitions) {
    mpi_check(MPI_Win_fence(MPI_MODE_NOPRECEDE, window_), "MPI_Win_fence");
    if (initiator_ || spec_.direction == "bi")
        for (std::size_t i = 0; i < repetitions; ++i) {
            buffers_->before_send(bytes);
            mpi_check(MPI_Put(buffers_->send_data(), count(bytes), MPI_BYTE, peer_, 0, count(bytes), MPI_BYTE, window_),
                      "MPI_Put");
        }
    mpi_check(MPI_Win_fence(MPI_MODE_NOSUCCEED, window_), "MPI_Win_fence");
    if (receives()) buffers_->after_recv(bytes);
}

TimedRun PairEnd::run(std::size_t bytes, std::size_t repetitions, bool with_latency) {
    if (bytes > capacity()) throw MeasurementError("size " + std::to_string(bytes) + " above the buffers' capacity");
    repetitions = std::max<std::size_t>(repetitions, 1);
    TimedRun out;
    if (with_latency) {
        pair_.barrier();
        const double t0 = steady_seconds();
        run_pingpong(bytes, repetitions);
        out.half_round_trip_s = (steady_seconds() - t0) / static_cast<double>(repetitions) / 2;
    }
    pair_.barrier();  // both ends start together; the initiator's clock times the batch
    const double t0 = steady_seconds();
    if (spec_.op == "put") run_put(bytes, repetitions);
    else run_sendrecv(bytes, repetitions);
    out.seconds = steady_seconds() - t0;
    return out;
}

nlohmann::json PairEnd::context() const {
    nlohmann::json c = buffers_->context();
    c["endpoint"] = endpoint_;
    return c;
}

}  // namespace hwcomm
