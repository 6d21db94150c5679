#include "io/results_migrate.hpp"

namespace hwcomm {

void migrate_v1(ResultsFile& file) {
    const std::string revision = file.meta.is_object() ? file.meta.value("git_revision", "unknown") : "unknown";
    for (auto& r : file.records)
        if (r.provenance.empty()) r.provenance = {{"kind", "measured"}, {"tool", "hwcomm"}, {"revision", revision}};
    if (file.meta.is_object()) file.meta["migrated_from_version"] = 1;
}

}  // namespace hwcomm
