#include "core/link_rates.hpp"

#include <cmath>

namespace hwcomm {

double pcie_lane_gbps(int generation) {
    switch (generation) {
        case 1: return 2.5 * 8.0 / 10.0 / 8.0;      // 0.25
        case 2: return 5.0 * 8.0 / 10.0 / 8.0;      // 0.5
        case 3: return 8.0 * 128.0 / 130.0 / 8.0;   // 0.985
        case 4: return 16.0 * 128.0 / 130.0 / 8.0;  // 1.969
        case 5: return 32.0 * 128.0 / 130.0 / 8.0;  // 3.938 -> x16 = 63.0
        case 6: return 64.0 * 242.0 / 256.0 / 8.0;  // FLIT mode, 7.56
        default: return 0.0;
    }
}

int pcie_generation_from_gts(double gt) {
    if (gt <= 0) return 0;
    constexpr double kRates[] = {2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
    for (int i = 0; i < 6; ++i)
        if (std::fabs(gt - kRates[i]) < 0.5) return i + 1;
    return 0;
}

std::string nvlink_version_from_nvml(int v) {
    switch (v) {
        case 1: return "1.0";
        case 2: return "2.0";
        case 3: return "2.2";
        case 4: return "3.0";
        case 5: return "3.1";
        case 6: return "4.0";
        case 7: return "5.0";
        default: return "";
    }
}

double nvlink_link_gbps(const std::string& version) {
    // Per sub-link signalling: 1.0 20 GB/s (P100); 2.x 25 GB/s (V100);
    // 3.x 25 GB/s (A100, 12 links = 300 GB/s); 4.0 26.5625 GB/s as the driver
    // reports it (H100/H200, 18 links ~ 478 GB/s); 5.0 53.125 GB/s (B200).
    if (version == "1.0") return 20.0;
    if (version == "2.0" || version == "2.2") return 25.0;
    if (version == "3.0" || version == "3.1") return 25.0;
    if (version == "4.0") return 26.5625;
    if (version == "5.0") return 53.125;
    return 0.0;
}

}  // namespace hwcomm
