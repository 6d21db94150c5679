#pragma once
// Which host a rank runs on, to tell ranks that share one (then the MPI
// numbers are shared-memory transport, not a network): the kernel's boot id,
// unique per boot of a machine (containers of one host share it), else the
// hostname.
#include <string>

namespace hwcomm {

struct HostIdentity {
    std::string hostname;
    std::string host_id;  // boot id, or "hostname:<name>" when /proc has none
};

HostIdentity read_host_identity();

}  // namespace hwcomm
