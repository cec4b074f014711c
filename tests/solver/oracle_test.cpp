// The 2,000-deal double-dummy oracle (tests/data/dd_oracle_2000.jsonl, computed
// independently): every one of the 16 values of every deal must agree, through the batch
// path (CalcAllTables) and, for a sample, through the per-position path (SolveBoard).
#include <chrono>
#include <cstdlib>
#include <iostream>

#include <gtest/gtest.h>

#include "../test_util.hpp"
#include "helpers.hpp"
#include "tarneeb/solver/solver.hpp"

using namespace tarneeb;
using namespace tarneeb::solver;

namespace {
/// Solves every `stride`-th oracle deal with tables() and counts the agreeing deals.
void check_tables(std::size_t stride) {
    const auto all = test::read_oracle();
    ASSERT_EQ(all.size(), 2000u);
    std::vector<test::OracleDeal> deals;
    for (std::size_t i = 0; i < all.size(); i += stride) deals.push_back(all[i]);
    std::vector<Hands> hands;
    for (const auto& d : deals) hands.push_back(d.hands);
    std::vector<DdTable> got(hands.size());
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_EQ(tables(hands, got), SolveError::ok);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "[oracle] " << deals.size() << " tables in " << secs << " s on " << configure().threads
              << " DDS threads\n";
    int agree = 0;
    for (std::size_t i = 0; i < deals.size(); ++i) {
        const bool same = got[i].tricks == deals[i].tricks;
        agree += same;
        EXPECT_TRUE(same) << "deal " << deals[i].id;
    }
    EXPECT_EQ(agree, static_cast<int>(deals.size()));
    std::cout << "[oracle] " << agree << "/" << deals.size() << " deals agree\n";
}
}  // namespace

// A full table costs about 0.4 s of CPU on this machine, so the default run checks every
// 20th deal (100 deals, ~20 s on 2 cores); the full 2,000/2,000 check is the CTest
// configuration `full` (`ctest -C full -R oracle_full`, several minutes), which sets
// TARNEEB_ORACLE_FULL=1.
// Every hundredth under the sanitizers: the solver (libdds) is not instrumented, and its cost
// is the same there.
TEST(Oracle, EveryTwentiethDealAgrees) { check_tables(static_cast<std::size_t>(test::under_sanitizers(20, 100))); }

TEST(Oracle, AllDealsAgree) {
    if (std::getenv("TARNEEB_ORACLE_FULL") == nullptr) GTEST_SKIP() << "set TARNEEB_ORACLE_FULL=1 (ctest -C full)";
    check_tables(1);
}

TEST(Oracle, SolveBoardAgreesOnSample) {
    // Every 100th deal (offset 7, so not the deals above), all 16 values, through SolveBoard: the seat to play is the declarer.
    const auto deals = test::read_oracle();
    Solver solver;
    for (std::size_t i = 7; i < deals.size(); i += 100)
        for (Suit su : kSuits)
            for (Seat s : kSeats) {
                int tricks = -1;
                ASSERT_EQ(solver.best_tricks(opening_position(deals[i].hands, su, s), tricks), SolveError::ok);
                EXPECT_EQ(tricks, deals[i].tricks[static_cast<std::size_t>(index(su))][static_cast<std::size_t>(index(s))])
                    << "deal " << i << " trump " << suit_letter(su) << " seat " << index(s);
            }
}
