// Small statistics for reports: Student's t quantile and the 95% confidence interval of a
// mean (`tarneeb simulate --duplicate`); percentiles of samples (the benchmarks, the load
// generator, the hall's metrics) and of a decision-time histogram (`tarneeb simulate
// --timing`). Both percentiles use one definition, the nearest rank: the p-quantile of n
// values is the one of rank min(n, floor(p * n) + 1) in increasing order (p = 0.5: the
// median, the upper of the two middle values when n is even; p = 1: the maximum).
// Standard library only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace tarneeb {

/// The 0.975 quantile of Student's t distribution with `df` degrees of freedom (the factor of
/// a two-sided 95% interval): a table for df 1..30 (to 10 digits), the Cornish-Fisher
/// expansion above (error under 3e-8), 1.959964 (the normal quantile) as df grows.
/// Precondition: df >= 1.
double t_quantile_975(int df);

/// The two-sided 95% confidence interval of the mean of `n` samples given their sum and sum of
/// squares (Student's t with n - 1 degrees of freedom and the sample standard deviation).
/// nullopt when n < 2: one sample gives no interval.
std::optional<std::pair<double, double>> mean_ci95(long long n, double sum, double sum_sq);

/// The p-quantile (0 <= p <= 1) of `samples` by nearest rank (file comment); 0 when there are
/// none. Takes a copy (it reorders it): O(n).
double percentile(std::vector<double> samples, double p);

/// Durations in nanoseconds, counted in buckets: 10 ns wide below 1 µs, then 1 % wide up to
/// 100 s (the last bucket holds the rest), so that microsecond rule bots and second-long
/// searches are both read to about 1 %. Histograms of several threads merge exactly.
class DurationHistogram {
public:
    void add(std::uint64_t ns);
    void merge(const DurationHistogram& other);
    std::uint64_t total() const { return total_; }
    /// The q-quantile by nearest rank (file comment), in nanoseconds: the midpoint of the
    /// bucket holding that rank; 0 when empty.
    double quantile(double q) const;

private:
    static constexpr std::size_t kLinear = 100;              ///< [0, 1000) ns in 10 ns steps
    static constexpr std::size_t kBuckets = kLinear + 1852;  ///< 1000 ns * 1.01^1852 ≈ 100 s
    static std::size_t bucket(std::uint64_t ns);
    std::vector<std::uint64_t> counts_ = std::vector<std::uint64_t>(kBuckets, 0);
    std::uint64_t total_ = 0;
};

}  // namespace tarneeb
