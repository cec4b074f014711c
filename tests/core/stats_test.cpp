// Student's t quantile, the mean's 95% interval, percentiles of samples and of a duration
// histogram (include/tarneeb/core/stats.hpp).
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "tarneeb/core/stats.hpp"

namespace tarneeb {
namespace {

TEST(Stats, TQuantileMatchesPublishedTables) {
    // Published two-sided 95% critical values of Student's t.
    EXPECT_NEAR(t_quantile_975(1), 12.706, 5e-4);
    EXPECT_NEAR(t_quantile_975(2), 4.303, 5e-4);
    EXPECT_NEAR(t_quantile_975(5), 2.571, 5e-4);
    EXPECT_NEAR(t_quantile_975(10), 2.228, 5e-4);
    EXPECT_NEAR(t_quantile_975(30), 2.042, 5e-4);
    EXPECT_NEAR(t_quantile_975(40), 2.021, 5e-4);
    EXPECT_NEAR(t_quantile_975(60), 2.000, 5e-4);
    EXPECT_NEAR(t_quantile_975(120), 1.980, 5e-4);
    EXPECT_NEAR(t_quantile_975(1'000'000), 1.95996, 1e-5);
    // Table and expansion meet smoothly, and the quantile falls as df grows.
    EXPECT_NEAR(t_quantile_975(31), 2.0395134464, 1e-7);
    for (int df = 1; df < 200; ++df) EXPECT_GT(t_quantile_975(df), t_quantile_975(df + 1)) << df;
}

TEST(Stats, OneSampleHasNoInterval) {
    EXPECT_FALSE(mean_ci95(1, 21.5, 21.5 * 21.5));
    EXPECT_FALSE(mean_ci95(0, 0, 0));
}

TEST(Stats, SmallSamplesUseStudentsT) {
    // 1, 2, 3: mean 2, s = 1, standard error 1/sqrt(3), t(2) = 4.3027: 2 -+ 2.4841.
    const auto ci = mean_ci95(3, 6, 14);
    ASSERT_TRUE(ci);
    EXPECT_NEAR(ci->first, 2 - 4.3026527297 / std::sqrt(3.0), 1e-9);
    EXPECT_NEAR(ci->second, 2 + 4.3026527297 / std::sqrt(3.0), 1e-9);
    EXPECT_NEAR(ci->second - 2, 2.4841, 1e-4);  // z = 1.96 would say 1.1316
    // Equal samples: an interval of width 0.
    const auto same = mean_ci95(4, 8, 16);
    ASSERT_TRUE(same);
    EXPECT_DOUBLE_EQ(same->first, 2);
    EXPECT_DOUBLE_EQ(same->second, 2);
}

TEST(Stats, PercentileIsTheNearestRank) {
    EXPECT_EQ(percentile({}, 0.5), 0);
    EXPECT_EQ(percentile({7}, 0), 7);
    EXPECT_EQ(percentile({7}, 0.99), 7);
    // Ten values in any order: rank floor(p * 10) + 1, at most 10.
    const std::vector<double> v{9, 2, 7, 4, 10, 1, 6, 3, 8, 5};
    EXPECT_EQ(percentile(v, 0), 1);
    EXPECT_EQ(percentile(v, 0.5), 6);   // the upper middle value
    EXPECT_EQ(percentile(v, 0.9), 10);  // rank 10
    EXPECT_EQ(percentile(v, 0.89), 9);  // rank 9
    EXPECT_EQ(percentile(v, 0.99), 10);
    EXPECT_EQ(percentile(v, 1), 10);    // the maximum
    // Odd count: the median is the middle value.
    EXPECT_EQ(percentile({3, 1, 2}, 0.5), 2);
    // The same answers as sorting and indexing, as the benchmarks' copies did.
    std::vector<double> many;
    for (int i = 0; i < 1000; ++i) many.push_back(static_cast<double>((i * 7919) % 1000));
    for (double p : {0.0, 0.5, 0.9, 0.99, 0.999, 1.0})
        EXPECT_EQ(percentile(many, p), std::min(999.0, std::floor(p * 1000))) << p;
}

TEST(Stats, HistogramQuantilesUseTheSameRankToOnePercent) {
    DurationHistogram h;
    EXPECT_EQ(h.total(), 0u);
    EXPECT_EQ(h.quantile(0.5), 0);
    // Below 1 µs: 10 ns buckets, the midpoint reported.
    h.add(123);
    EXPECT_EQ(h.total(), 1u);
    EXPECT_EQ(h.quantile(0.5), 125);
    // 1..100 µs: each quantile within 1 % of the nearest-rank value of the samples.
    DurationHistogram a, b;
    std::vector<double> samples;
    for (int i = 1; i <= 100; ++i) {
        const auto ns = static_cast<std::uint64_t>(i) * 1000;
        (i % 2 ? a : b).add(ns);
        samples.push_back(static_cast<double>(ns));
    }
    a.merge(b);
    EXPECT_EQ(a.total(), 100u);
    for (double q : {0.0, 0.25, 0.5, 0.9, 0.99, 1.0}) {
        const double exact = percentile(samples, q);
        EXPECT_NEAR(a.quantile(q), exact, exact * 0.01) << q;
    }
    // Milliseconds to seconds (pimc's DDS solves take tens of ms; the histogram once stopped at
    // 1 ms and read 999.995 µs for everything slower): still to 1 %.
    for (const double ns : {1.5e6, 50e6, 2.5e9}) {
        DurationHistogram one;
        one.add(static_cast<std::uint64_t>(ns));
        EXPECT_NEAR(one.quantile(0.5), ns, ns * 0.01) << ns;
    }
    // Longer than 100 s: the last bucket.
    DurationHistogram slow;
    slow.add(500'000'000'000ull);
    EXPECT_GT(slow.quantile(1), 99e9);
}

}  // namespace
}  // namespace tarneeb
