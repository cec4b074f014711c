// Random simulation over thousands of seeded matches of both presets, checking invariants,
// copies and the record round trip (as OpenSpiel's random-simulation tests do).
#include <gtest/gtest.h>

#include "../test_util.hpp"

#include "tarneeb/core/simulate.hpp"
#include "tarneeb/records/record.hpp"

namespace tarneeb {
namespace {

void check_round(const Round& r) {
    if (r.phase() == Phase::passed_out) {
        EXPECT_EQ(r.cards_played(), 0);
        EXPECT_EQ(r.points(Team::t0), 0);
        EXPECT_EQ(r.points(Team::t1), 0);
        return;
    }
    ASSERT_EQ(r.phase(), Phase::scored);
    ASSERT_EQ(r.cards_played(), 52);
    CardSet seen;
    for (int i = 0; i < 52; ++i) {
        const Card c = r.plays()[static_cast<std::size_t>(i)];
        ASSERT_FALSE(seen.contains(c)) << "card played twice";
        seen |= c;
        ASSERT_TRUE(r.dealt(r.played_by(i)).contains(c)) << "card played by a seat that was not dealt it";
    }
    EXPECT_EQ(seen, CardSet::deck());
    EXPECT_EQ(r.tricks_played(), 13);
    EXPECT_EQ(r.tricks(Team::t0) + r.tricks(Team::t1), 13);
    for (Seat s : kSeats) EXPECT_TRUE(r.hand(s).empty());
    EXPECT_EQ(r.leader_of_trick(0), r.contract().value().declarer);
    const Team d = team_of(r.contract().value().declarer);
    EXPECT_EQ(r.made(), r.tricks(d) >= r.contract().value().bid);
    EXPECT_TRUE(r.points(Team::t0) <= 0 || r.points(Team::t1) <= 0) << "only one team gains in a round";
}

void check_match(const Match& m) {
    ASSERT_TRUE(m.over());
    std::array<int, 2> sum{};
    int scored = 0, pass_run = 0;
    for (std::size_t i = 0; i < m.rounds().size(); ++i) {
        const Round& r = m.rounds()[i];
        check_round(r);
        for (Team t : {Team::t0, Team::t1}) sum[index(t)] += r.points(t);
        EXPECT_EQ(m.totals_after(static_cast<int>(i)), sum);
        if (r.phase() == Phase::scored) {
            ++scored;
            pass_run = 0;
        } else {
            ++pass_run;
        }
    }
    EXPECT_EQ(sum, m.totals());
    EXPECT_EQ(scored, m.scored_rounds());
    switch (m.status()) {
        case MatchStatus::won:
            ASSERT_TRUE(m.winner().has_value());
            if (!m.tiebreak() && m.scored_rounds() < m.rules().round_cap) {
                EXPECT_GE(m.total(*m.winner()), m.rules().target);
            }
            break;
        case MatchStatus::closed: EXPECT_EQ(pass_run, m.rules().pass_out_close); break;
        case MatchStatus::drawn: EXPECT_EQ(m.total(Team::t0), m.total(Team::t1)); break;
        default: ADD_FAILURE() << "match not over";
    }
}

class RandomMatches : public ::testing::TestWithParam<Preset> {};

TEST_P(RandomMatches, InvariantsHoldOverThousandsOfMatches) {
    const Rules rules = rules_for(GetParam());
    int won = 0;
    // A tenth under the sanitizers (pure computation: the release run covers the rare cases).
    const int matches = test::under_sanitizers(3000, 300);
    for (std::uint64_t seed = 0; seed < static_cast<std::uint64_t>(matches); ++seed) {
        const Match m = play_random_match(rules, seat(static_cast<int>(seed % 4)), seed);
        check_match(m);
        won += m.status() == MatchStatus::won;
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(won * 3, matches * 2);
}

TEST_P(RandomMatches, LongMatchesWithAHighTargetReachTheCap) {
    Rules rules = rules_for(GetParam());
    rules.target = 1000;
    int drawn_or_capped = 0;
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
        const Match m = play_random_match(rules, Seat::s0, seed);
        check_match(m);
        drawn_or_capped += m.scored_rounds() == rules.round_cap;
    }
    EXPECT_GT(drawn_or_capped, 40);
}

TEST_P(RandomMatches, ACopyBehavesIdentically) {
    const Rules rules = rules_for(GetParam());
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        Match m(rules, Seat::s0);
        Rng rng(seed);
        Match copy;
        Rng copy_rng(0);
        bool copied = false;
        int steps = 0;
        while (!m.over()) {
            if (m.awaiting_deal()) {
                deal_next_from_seed(m, seed);
                continue;
            }
            if (!copied && ++steps == 30) {
                copy = m;
                copy_rng = rng;
                copied = true;
            }
            m.apply(random_action(m.round(), rng));
        }
        if (!copied) continue;
        while (!copy.over()) {
            if (copy.awaiting_deal()) {
                deal_next_from_seed(copy, seed);
                continue;
            }
            copy.apply(random_action(copy.round(), copy_rng));
        }
        ASSERT_EQ(copy.rounds().size(), m.rounds().size());
        for (std::size_t i = 0; i < m.rounds().size(); ++i) EXPECT_TRUE(copy.rounds()[i] == m.rounds()[i]);
        EXPECT_EQ(copy.totals(), m.totals());
    }
}

TEST_P(RandomMatches, WritingARecordAndReplayingItGivesTheSameResult) {
    const Rules rules = rules_for(GetParam());
    const auto matches = static_cast<std::uint64_t>(test::under_sanitizers(400, 40));
    for (std::uint64_t seed = 0; seed < matches; ++seed) {
        records::Replay played{play_random_match(rules, seat(static_cast<int>(seed % 4)), seed), std::nullopt};
        const std::string text = records::record_json(played.match).dump();
        const records::Replay again = records::replay(text);
        ASSERT_FALSE(again.error.has_value()) << text;
        EXPECT_EQ(records::result_json(again), records::result_json(played));
    }
}

TEST(RandomMatches, RecordsKeepNonDefaultMatchSettings) {
    Rules rules = kClassic;
    rules.target = 21;
    rules.bracket_tiebreak = true;
    const Match m = play_random_match(rules, Seat::s1, 5);
    const records::Replay again = records::replay(records::record_json(m).dump());
    ASSERT_FALSE(again.error.has_value());
    EXPECT_EQ(again.match.rules(), rules);
    EXPECT_EQ(again.match.totals(), m.totals());
}

INSTANTIATE_TEST_SUITE_P(BothPresets, RandomMatches, ::testing::Values(Preset::levantine, Preset::classic),
                         [](const auto& p) { return std::string(to_string(p.param)); });

}  // namespace
}  // namespace tarneeb
