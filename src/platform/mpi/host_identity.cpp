#include "platform/mpi/host_identity.hpp"

#include <unistd.h>

#include <fstream>

namespace hwcomm {

HostIdentity read_host_identity() {
    HostIdentity id;
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) == 0) id.hostname = name;
    std::ifstream in("/proc/sys/kernel/random/boot_id");
    std::string boot;
    if (in && std::getline(in, boot) && !boot.empty()) id.host_id = boot;
    else id.host_id = "hostname:" + id.hostname;
    return id;
}

}  // namespace hwcomm
