// The solver on positions inside a trick: each card's score agrees with solving the position
// after it; the null window agrees with the full search; bad positions never reach DDS.
#include <filesystem>

#include <gtest/gtest.h>

#include "helpers.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/simulate.hpp"
#include "tarneeb/solver/solver.hpp"

using namespace tarneeb;
using namespace tarneeb::solver;

namespace {
using test::random_round_at;

/// Tricks of `team` over the whole deal when play goes on from `r` with best play.
int total_for(const Round& r, Team team, Solver& solver) {
    if (r.over()) return r.tricks(team);
    int bt = -1;
    EXPECT_EQ(solver.best_tricks(position_of(r), bt), SolveError::ok);
    const int left = 13 - r.tricks_played();
    return r.tricks(team) + (team_of(r.to_act()) == team ? bt : left - bt);
}
}  // namespace

TEST(Solver, EachCardAgreesWithTheNextPosition) {
    Solver solver;
    for (std::uint64_t seed = 1; seed <= 24; ++seed) {
        const int at = 20 + static_cast<int>(seed % 4) + 4 * static_cast<int>(seed % 5);  // 20..39, all trick offsets
        const Round r = random_round_at(seed, at);
        const Position p = position_of(r);
        CardScores scores;
        ASSERT_EQ(solver.all_cards(p, scores), SolveError::ok);
        EXPECT_EQ(scores.size, r.legal_cards().size());
        int best = -1;
        ASSERT_EQ(solver.best_tricks(p, best), SolveError::ok);
        EXPECT_EQ(scores.items[0].tricks, best);
        const Team us = team_of(r.to_act());
        for (const CardScore& cs : scores.cards()) {
            Round after = r;
            ASSERT_EQ(after.apply(Action::play(cs.card)), ErrorCode::ok);
            EXPECT_EQ(r.tricks(us) + cs.tricks, total_for(after, us, solver))
                << "seed " << seed << " card " << to_string(cs.card);
        }
    }
}

TEST(Solver, NullWindowAgreesWithFullSearch) {
    Solver solver;
    for (std::uint64_t seed = 30; seed < 42; ++seed) {
        const Round r = random_round_at(seed, 8 + static_cast<int>(seed % 4));
        const Position p = position_of(r);
        CardScores full;
        ASSERT_EQ(solver.all_cards(p, full), SolveError::ok);
        for (int target = 0; target <= p.tricks_left(); ++target) {
            CardScores nw;
            ASSERT_EQ(solver.cards_reaching(p, target, nw), SolveError::ok);
            ASSERT_EQ(nw.size, full.size);
            for (const CardScore& cs : full.cards())
                EXPECT_EQ(nw.tricks_of(cs.card), cs.tricks >= target ? target : 0)
                    << "seed " << seed << " target " << target << " card " << to_string(cs.card);
        }
        CardScores bad;
        EXPECT_EQ(solver.cards_reaching(p, p.tricks_left() + 1, bad), SolveError::bad_target);
    }
}

TEST(Solver, InvalidPositionsNeverReachDds) {
    const auto cwd = std::filesystem::current_path();
    const auto dir = std::filesystem::temp_directory_path() / "tarneeb_solver_dump_test";
    std::filesystem::create_directories(dir);
    std::filesystem::remove(dir / "dump.txt");
    std::filesystem::current_path(dir);
    Solver solver;
    Position p = opening_position(deal_from_seed(3, Seat::s0), Suit::spades, Seat::s1);
    p.hands[2] -= CardSet(p.hands[2].lowest());  // 12 cards: DDS would answer (or dump)
    int tricks = -7;
    EXPECT_EQ(solver.best_tricks(p, tricks), SolveError::bad_card_count);
    EXPECT_EQ(tricks, -7);
    CardScores out;
    EXPECT_EQ(solver.all_cards(Position{}, out), SolveError::no_cards);
    Hands dup = deal_from_seed(3, Seat::s0);
    dup[0] |= dup[1].lowest();
    DdTable t;
    EXPECT_EQ(table(dup, t), SolveError::duplicate_card);
    EXPECT_FALSE(std::filesystem::exists(dir / "dump.txt"));
    std::filesystem::current_path(cwd);
}

TEST(Solver, LeasesDistinctThreadIndices) {
    Solver a;
    const int n = configure().threads;
    if (n < 2) GTEST_SKIP() << "one DDS thread";
    Solver b;
    EXPECT_NE(a.thread_index(), b.thread_index());
    Solver moved(std::move(b));
    EXPECT_EQ(b.thread_index(), -1);
    EXPECT_NE(moved.thread_index(), a.thread_index());
}

TEST(Solver, TableMatchesSolveBoard) {
    const Hands h = deal_from_seed(99, Seat::s2);
    DdTable t;
    ASSERT_EQ(table(h, t), SolveError::ok);
    Solver solver;
    for (Suit su : kSuits)
        for (Seat s : kSeats) {
            int tricks = -1;
            ASSERT_EQ(solver.best_tricks(opening_position(h, su, s), tricks), SolveError::ok);
            EXPECT_EQ(tricks, t.at(su, s));
        }
}
