// Small statistics for reports (`tarneeb simulate --duplicate`): Student's t quantile and the
// 95% confidence interval of a mean. Standard library only.
#pragma once

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

/// The p-quantile (0 <= p <= 1) of `samples` by nearest rank: the value of rank
/// min(n, floor(p * n) + 1) in increasing order (p = 0.5: the median, the upper of the two
/// middle values when n is even; p = 1: the maximum); 0 when there are none. Takes a copy (it
/// reorders it): O(n). (The hall's metrics; the bots engineer's version of this file adds the
/// same function for the benchmarks and the load generator.)
double percentile(std::vector<double> samples, double p);

}  // namespace tarneeb
