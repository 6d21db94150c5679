#pragma once
// A communicator with checked calls and the few collectives a cluster run
// needs: barrier, split into pairs, point-to-point bytes and strings, gathers
// and broadcasts of strings (JSON text). Owns what it splits (MPI_Comm_free).
#include <cstddef>
#include <string>
#include <vector>

#include <mpi.h>

namespace hwcomm {

class Communicator {
public:
    // Borrows MPI_COMM_WORLD (not freed).
    static Communicator world();
    Communicator(Communicator&& other) noexcept;
    Communicator& operator=(Communicator&& other) noexcept;
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;
    ~Communicator();

    MPI_Comm raw() const { return comm_; }
    int rank() const { return rank_; }
    int size() const { return size_; }
    bool valid() const { return comm_ != MPI_COMM_NULL; }

    void barrier() const;
    // MPI_Comm_split; a negative color means "not in any part" (invalid result).
    Communicator split(int color, int key) const;

    void send(const void* data, std::size_t bytes, int to, int tag) const;
    void recv(void* data, std::size_t bytes, int from, int tag) const;
    void send_string(const std::string& text, int to, int tag) const;
    std::string recv_string(int from, int tag) const;

    // Every rank's string, in rank order, on every rank.
    std::vector<std::string> allgather_strings(const std::string& mine) const;
    // Every rank's string on `root` (others get an empty vector).
    std::vector<std::string> gather_strings(const std::string& mine, int root) const;
    // root's text on every rank.
    std::string broadcast_string(const std::string& text, int root) const;
    // Logical OR of a flag over the ranks.
    bool any(bool mine) const;

private:
    Communicator(MPI_Comm comm, bool owned);
    void release() noexcept;

    MPI_Comm comm_ = MPI_COMM_NULL;
    bool owned_ = false;
    int rank_ = -1, size_ = 0;
};

}  // namespace hwcomm
