#pragma once
// Variants (CPU worker counts) chosen once per record instead of measured at
// every size: every variant is measured at a few probe sizes the session
// names (a small, a cache-resident and the largest size), and each size of the
// ladder is then measured with the winner of the probe nearest to it on a log
// scale (at the largest probe, among counts the probe cannot tell apart, the
// most workers: variant_choice.cpp). On a 16-core host five worker counts used to share every size's
// budget; now the ladder's sizes get it whole (issues 21 item 6, 23 item 3).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hwcomm {

// One variant measured at one probe size.
struct VariantProbe {
    std::uint64_t bytes = 0;
    std::string variant;
    double gbps = 0;           // median bandwidth; 0 when it failed
    double ci_half_width = 0;  // relative half-width of the median's 95% CI
    std::size_t samples = 0;
    std::string error;
};

class VariantChoice {
public:
    // Every variant at every size (no probes).
    explicit VariantChoice(std::vector<std::string> variants) : all_(std::move(variants)) {}
    // The variants to measure at `bytes`: the nearest probe's winner, or all.
    std::vector<std::string> for_size(std::uint64_t bytes) const;
    bool probed() const { return !winners_.empty(); }
    // {"probes": [...], "winners": [{"bytes", "variant"}], "rule": "..."}: the record's context.variant_choice.
    nlohmann::json to_json() const;

    // Measures every variant at each probe size (snapped to the nearest size of
    // `ladder`, at most `max_bytes`), except those the last probe size shows
    // cannot overtake the best one here (variant_choice.cpp says when); a
    // probe size whose variants all failed
    // keeps every variant for its sizes. nullopt when `measure` was interrupted
    // (it returns nullopt).
    using Measure = std::function<std::optional<VariantProbe>(std::uint64_t bytes, const std::string& variant)>;
    static std::optional<VariantChoice> probe(const std::vector<std::string>& variants,
                                              const std::vector<std::size_t>& probe_sizes,
                                              const std::vector<std::uint64_t>& ladder, std::uint64_t max_bytes,
                                              const Measure& measure);

private:
    std::vector<std::string> all_;
    std::vector<VariantProbe> probes_;
    std::vector<std::pair<std::uint64_t, std::string>> winners_;  // probe size -> variant ("" = keep all)
    std::vector<std::pair<std::uint64_t, std::string>> skipped_;  // probe size, a variant that could not overtake
};

// The probe sizes snapped to the ladder: each the ladder size nearest on a log
// scale among those <= max_bytes; sorted, deduplicated. Empty when none fits.
std::vector<std::uint64_t> snap_probe_sizes(const std::vector<std::size_t>& probe_sizes,
                                            const std::vector<std::uint64_t>& ladder, std::uint64_t max_bytes);

}  // namespace hwcomm
