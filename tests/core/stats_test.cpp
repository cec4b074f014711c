// Student's t quantile and the mean's 95% interval (include/tarneeb/core/stats.hpp).
#include <cmath>

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

}  // namespace
}  // namespace tarneeb
