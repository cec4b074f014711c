#include "tarneeb/core/stats.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace tarneeb {

double t_quantile_975(int df) {
    // t(0.975, df) for df = 1..30 (checked against Boost.Math's students_t quantile).
    static constexpr std::array<double, 30> kTable{
        12.7062047362, 4.3026527297, 3.1824463053, 2.7764451052, 2.5705818356, 2.4469118511,
        2.3646242516,  2.3060041352, 2.2621571628, 2.2281388520, 2.2009851601, 2.1788128297,
        2.1603686565,  2.1447866879, 2.1314495456, 2.1199052992, 2.1098155778, 2.1009220402,
        2.0930240544,  2.0859634473, 2.0796138447, 2.0738730679, 2.0686576104, 2.0638985616,
        2.0595385528,  2.0555294386, 2.0518305165, 2.0484071418, 2.0452296421, 2.0422724563};
    if (df < 1) df = 1;
    if (df <= 30) return kTable[static_cast<std::size_t>(df - 1)];
    // Cornish-Fisher expansion of t in powers of 1/df around the normal quantile z
    // (Abramowitz & Stegun 26.7.5).
    const double z = 1.959963984540054, v = df;
    const double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z, z9 = z7 * z * z;
    const double g1 = (z3 + z) / 4;
    const double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
    const double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
    const double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;
    return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v);
}

std::optional<std::pair<double, double>> mean_ci95(long long n, double sum, double sum_sq) {
    if (n < 2) return std::nullopt;
    const double m = static_cast<double>(n);
    const double mean = sum / m;
    const double var = std::max(0.0, (sum_sq - m * mean * mean) / (m - 1));
    const double half = t_quantile_975(static_cast<int>(std::min<long long>(n - 1, 1 << 30))) * std::sqrt(var / m);
    return std::pair{mean - half, mean + half};
}

namespace {
/// The 0-based index of the nearest-rank p-quantile among n > 0 values.
std::size_t rank_index(std::uint64_t n, double p) {
    const double k = std::floor(p * static_cast<double>(n));
    return static_cast<std::size_t>(std::clamp(k, 0.0, static_cast<double>(n - 1)));
}
}  // namespace

double percentile(std::vector<double> samples, double p) {
    if (samples.empty()) return 0;
    const std::size_t k = rank_index(samples.size(), p);
    std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(k), samples.end());
    return samples[k];
}

std::size_t DurationHistogram::bucket(std::uint64_t ns) {
    if (ns < 1000) return static_cast<std::size_t>(ns / 10);
    const auto k = static_cast<std::size_t>(std::log(static_cast<double>(ns) / 1000.0) / std::log(1.01));
    return std::min(kLinear + k, kBuckets - 1);
}

void DurationHistogram::add(std::uint64_t ns) {
    ++counts_[bucket(ns)];
    ++total_;
}

void DurationHistogram::merge(const DurationHistogram& other) {
    for (std::size_t i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
    total_ += other.total_;
}

double DurationHistogram::quantile(double q) const {
    if (total_ == 0) return 0;
    const std::uint64_t want = rank_index(total_, q) + 1;  // the wanted rank, 1-based
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < kBuckets; ++i) {
        seen += counts_[i];
        if (seen >= want) {
            if (i < kLinear) return static_cast<double>(i) * 10 + 5;
            return 1000.0 * std::pow(1.01, static_cast<double>(i - kLinear) + 0.5);
        }
    }
    return 0;  // unreachable: the buckets hold total_ values
}

}  // namespace tarneeb
