// Card decisions against the solver (include/tarneeb/fairplay/decisions.hpp) and the `cheater`
// test bot (include/tarneeb/bots/cheater_bot.hpp).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tarneeb/bots/arena.hpp"
#include "tarneeb/bots/engine_bot.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/fairplay/decisions.hpp"
#include "tarneeb/records/record.hpp"
#include "tarneeb/solver/analysis.hpp"

namespace tarneeb::fairplay {
namespace {

/// A match of four heuristic bots to `target`.
Match heuristic_match(std::uint64_t seed, int target) {
    Rules rules = kLevantine;
    rules.target = target;
    bots::HeuristicBot h;
    return bots::play_match(rules, Seat::s0, seed, bots::Lineup{&h, &h, &h, &h});
}

TEST(FairplayDecisions, CountsWhatTheAnalysisBoardShows) {
    // The same numbers from the analysis board (analysis.hpp, another path through the solver):
    // a decision is non-obvious when its legal cards have more than one value, and best when its
    // cost is 0. The last trick (one card each) is never counted.
    const Match m = heuristic_match(3, 11);
    int rounds = 0;
    for (const Round& r : m.rounds()) {
        if (!r.trump_named()) continue;
        if (++rounds > 2) break;  // two deals are enough (each analysis solves its table too)
        BySeat<Tally> tally{};
        ASSERT_EQ(tally_round(r, 1, tally), solver::SolveError::ok);
        solver::DealAnalysis a;
        ASSERT_EQ(solver::analyse_deal(r, a), solver::SolveError::ok);
        BySeat<Tally> expected{};
        for (const solver::PositionAnalysis& p : a.positions) {
            ++expected[p.seat].positions;
            const auto cards = p.cards.cards();
            if (cards.front().declarer_tricks == cards.back().declarer_tricks) continue;
            ++expected[p.seat].decisions;
            expected[p.seat].best += p.cost == 0;
        }
        int positions = 0, obvious = 0;
        for (Seat s : kSeats) {
            EXPECT_EQ(tally[s].positions, expected[s].positions);
            EXPECT_EQ(tally[s].decisions, expected[s].decisions);
            EXPECT_EQ(tally[s].best, expected[s].best);
            EXPECT_LE(tally[s].decisions, tally[s].positions - 1);  // its last card is obvious
            EXPECT_LE(tally[s].hidden, tally[s].decisions);
            EXPECT_LE(tally[s].hidden_best, std::min(tally[s].hidden, tally[s].best));
            positions += tally[s].positions;
            obvious += tally[s].positions - tally[s].decisions;
        }
        EXPECT_EQ(positions, r.cards_played());
        if (r.cards_played() == 52) {
            EXPECT_GE(obvious, 4);  // the last trick at least
        }
        // Deterministic: the same round and seed, the same tally.
        BySeat<Tally> again{};
        ASSERT_EQ(tally_round(r, 1, again), solver::SolveError::ok);
        EXPECT_EQ(again, tally);
    }
    EXPECT_GT(rounds, 1);
}

TEST(FairplayDecisions, APassedOutRoundAddsNothing) {
    Round r(kLevantine, Seat::s0, deal_from_seed(9, Seat::s0));
    while (r.phase() == Phase::auction) r.apply(Action::pass());
    ASSERT_EQ(r.phase(), Phase::passed_out);
    BySeat<Tally> tally{};
    EXPECT_EQ(tally_round(r, 1, tally), solver::SolveError::ok);
    EXPECT_EQ(tally, BySeat<Tally>{});
}

TEST(FairplayDecisions, RecordsNameTheirPlayersOrTheFileAndSeat) {
    const Match m = heuristic_match(7, 11);
    nlohmann::json record = records::record_json(m);
    MatchTally plain;
    ASSERT_FALSE(tally_record(record.dump(), "m.json", 1, plain));
    EXPECT_EQ(plain.names, (std::array<std::string, 4>{"m.json#0", "m.json#1", "m.json#2", "m.json#3"}));
    record["players"] = {"Layla", "Omar", "Dina", "Eli"};
    MatchTally named;
    ASSERT_FALSE(tally_record(record.dump(), "m.json", 1, named));
    EXPECT_EQ(named.names, (std::array<std::string, 4>{"Layla", "Omar", "Dina", "Eli"}));
    EXPECT_EQ(named.seats, plain.seats);
    int positions = 0;
    for (const Tally& t : named.seats) positions += t.positions;
    int cards = 0;
    for (const Round& r : m.rounds()) cards += r.cards_played();
    EXPECT_EQ(positions, cards);
    // A rejected record counts nothing and says why.
    record["deals"][0]["play"][1] = record["deals"][0]["play"][0];
    MatchTally bad;
    const auto why = tally_record(record.dump(), "m.json", 1, bad);
    ASSERT_TRUE(why);
    EXPECT_EQ(why->rfind("record rejected: ", 0), 0u) << *why;
    EXPECT_TRUE(tally_record("not json", "x", 1, bad));
}

TEST(CheaterBot, IsNeverMadeFromANameAndPlaysTheBestCardOfTheRealDeal) {
    EXPECT_EQ(bots::make_bot("cheater", 1), nullptr);
    EXPECT_TRUE(bots::player_error("cheater"));  // `tarneeb play --bots cheater`, `engine --bot cheater`
    EXPECT_EQ(bots::bot_names().find("cheater"), std::string::npos);
    EXPECT_TRUE(bots::is_seeing_bot("cheater"));
    EXPECT_FALSE(bots::is_seeing_bot("heuristic"));
    Rules rules = kLevantine;
    rules.target = 11;
    Match m(rules, Seat::s0);
    EXPECT_EQ(bots::make_seeing_bot("heuristic", 1, m), nullptr);
    const auto cheater = bots::make_seeing_bot("cheater", 1, m);
    ASSERT_NE(cheater, nullptr);
    EXPECT_EQ(cheater->name(), "cheater");
    bots::HeuristicBot h;
    bots::LoopStats stats;
    bots::LoopHooks hooks;
    hooks.stats = &stats;
    ASSERT_TRUE(bots::play_on(m, 11, bots::Lineup{cheater.get(), &h, &h, &h}, hooks));
    EXPECT_EQ(stats.illegal_actions, 0u);
    // Every card decision of seat 0 was a double-dummy best card.
    MatchTally t;
    ASSERT_EQ(tally_match(m, 1, t), solver::SolveError::ok);
    EXPECT_GT(t.seats[0].decisions, 0);
    EXPECT_EQ(t.seats[0].best, t.seats[0].decisions);
    EXPECT_EQ(t.seats[0].hidden_best, t.seats[0].hidden);
}

}  // namespace
}  // namespace tarneeb::fairplay
