#include "platform/mpi/communicator.hpp"

#include <algorithm>
#include <climits>
#include <numeric>

#include "platform/mpi/mpi_error.hpp"

namespace hwcomm {

namespace {

constexpr std::size_t kChunk = std::size_t{1} << 30;  // MPI counts are int

int count_of(std::size_t bytes) { return static_cast<int>(std::min(bytes, kChunk)); }

}  // namespace

Communicator::Communicator(MPI_Comm comm, bool owned) : comm_(comm), owned_(owned) {
    if (comm_ == MPI_COMM_NULL) return;
    mpi_check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    mpi_check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

Communicator Communicator::world() { return Communicator(MPI_COMM_WORLD, false); }

Communicator::Communicator(Communicator&& other) noexcept
    : comm_(other.comm_), owned_(other.owned_), rank_(other.rank_), size_(other.size_) {
    other.comm_ = MPI_COMM_NULL;
    other.owned_ = false;
}

Communicator& Communicator::operator=(Communicator&& other) noexcept {
    if (this != &other) {
        release();
        comm_ = other.comm_;
        owned_ = other.owned_;
        rank_ = other.rank_;
        size_ = other.size_;
        other.comm_ = MPI_COMM_NULL;
        other.owned_ = false;
    }
    return *this;
}

Communicator::~Communicator() { release(); }

void Communicator::release() noexcept {
    if (owned_ && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    comm_ = MPI_COMM_NULL;
    owned_ = false;
}

void Communicator::barrier() const { mpi_check(MPI_Barrier(comm_), "MPI_Barrier"); }

Communicator Communicator::split(int color, int key) const {
    MPI_Comm part = MPI_COMM_NULL;
    mpi_check(MPI_Comm_split(comm_, color < 0 ? MPI_UNDEFINED : color, key, &part), "MPI_Comm_split");
    if (part != MPI_COMM_NULL) mpi_check(MPI_Comm_set_errhandler(part, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    return Communicator(part, true);
}

void Communicator::send(const void* data, std::size_t bytes, int to, int tag) const {
    const auto* p = static_cast<const char*>(data);
    do {
        const int n = count_of(bytes);
        mpi_check(MPI_Send(p, n, MPI_BYTE, to, tag, comm_), "MPI_Send");
        p += n;
        bytes -= static_cast<std::size_t>(n);
    } while (bytes > 0);
}

void Communicator::recv(void* data, std::size_t bytes, int from, int tag) const {
    auto* p = static_cast<char*>(data);
    do {
        const int n = count_of(bytes);
        mpi_check(MPI_Recv(p, n, MPI_BYTE, from, tag, comm_, MPI_STATUS_IGNORE), "MPI_Recv");
        p += n;
        bytes -= static_cast<std::size_t>(n);
    } while (bytes > 0);
}

void Communicator::send_string(const std::string& text, int to, int tag) const {
    const unsigned long long length = text.size();
    send(&length, sizeof length, to, tag);
    if (length) send(text.data(), text.size(), to, tag);
}

std::string Communicator::recv_string(int from, int tag) const {
    unsigned long long length = 0;
    recv(&length, sizeof length, from, tag);
    std::string text(static_cast<std::size_t>(length), '\0');
    if (length) recv(text.data(), text.size(), from, tag);
    return text;
}

std::vector<std::string> Communicator::allgather_strings(const std::string& mine) const {
    std::vector<std::string> all;
    for (int root = 0; root < size_; ++root) all.push_back(broadcast_string(root == rank_ ? mine : std::string(), root));
    return all;
}

std::vector<std::string> Communicator::gather_strings(const std::string& mine, int root) const {
    // Point to point, one rank after another: results files can exceed what an int displacement of Gatherv holds.
    constexpr int kTag = 7101;
    std::vector<std::string> all;
    if (rank_ != root) {
        send_string(mine, root, kTag);
        return all;
    }
    all.resize(static_cast<std::size_t>(size_));
    for (int r = 0; r < size_; ++r) all[static_cast<std::size_t>(r)] = r == root ? mine : recv_string(r, kTag);
    return all;
}

std::string Communicator::broadcast_string(const std::string& text, int root) const {
    unsigned long long length = text.size();
    mpi_check(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, root, comm_), "MPI_Bcast");
    std::string out = rank_ == root ? text : std::string(static_cast<std::size_t>(length), '\0');
    for (std::size_t done = 0; done < out.size();) {
        const int n = count_of(out.size() - done);
        mpi_check(MPI_Bcast(out.data() + done, n, MPI_BYTE, root, comm_), "MPI_Bcast");
        done += static_cast<std::size_t>(n);
    }
    return out;
}

bool Communicator::any(bool mine) const {
    int in = mine ? 1 : 0, out = 0;
    mpi_check(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, comm_), "MPI_Allreduce");
    return out != 0;
}

}  // namespace hwcomm
