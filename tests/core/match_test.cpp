// The match: target, negative scores, round cap, draw, bracket tie-break, pass-out closure
// and the dealer's rotation (docs/rules.md "Common", each preset).
#include <gtest/gtest.h>

#include "tarneeb/core/match.hpp"
#include "../test_util.hpp"

namespace tarneeb {
namespace {

using test::pass_out;
using test::play_contract;

Match fresh(Rules rules, Seat first_dealer = Seat::s0) {
    Match m(rules, first_dealer);
    EXPECT_EQ(m.start_round(test::suit_per_seat()), ErrorCode::ok);
    return m;
}

void deal(Match& m) { ASSERT_EQ(m.start_round(test::suit_per_seat()), ErrorCode::ok); }

TEST(Match, FirstTeamToReachTheTargetWins) {
    Match m = fresh(kLevantine);
    play_contract(m, Seat::s0, 13, Suit::spades);  // +13
    EXPECT_EQ(m.totals(), (std::array<int, 2>{13, 0}));
    deal(m);
    play_contract(m, Seat::s0, 13, Suit::spades);  // 26
    EXPECT_EQ(m.status(), MatchStatus::in_progress);
    deal(m);
    play_contract(m, Seat::s0, 7, Suit::spades);  // 33 >= 31
    EXPECT_EQ(m.status(), MatchStatus::won);
    EXPECT_EQ(m.winner(), Team::t0);
    EXPECT_EQ(m.scored_rounds(), 3);
    EXPECT_FALSE(m.tiebreak());
    EXPECT_EQ(m.start_round(test::suit_per_seat()), ErrorCode::match_over);
    EXPECT_EQ(m.apply(Action::pass()), ErrorCode::match_over);
}

TEST(Match, ReachingExactlyTheTargetWins) {
    Rules r = kLevantine;
    r.target = 20;
    Match m = fresh(r);
    play_contract(m, Seat::s0, 13, Suit::spades);
    deal(m);
    play_contract(m, Seat::s0, 7, Suit::spades);
    EXPECT_EQ(m.total(Team::t0), 20);
    EXPECT_EQ(m.status(), MatchStatus::won);
}

TEST(Match, ScoresGoBelowZero) {
    Match m = fresh(kLevantine);
    play_contract(m, Seat::s1, 7, Suit::clubs);  // team 1 set with 0 tricks
    EXPECT_EQ(m.totals(), (std::array<int, 2>{13, -7}));
    deal(m);
    play_contract(m, Seat::s1, 8, Suit::clubs);
    EXPECT_EQ(m.totals(), (std::array<int, 2>{26, -15}));
    EXPECT_EQ(m.status(), MatchStatus::in_progress);
}

TEST(Match, RoundsNeedTheirDealBeforeActions) {
    Match m(kLevantine, Seat::s0);
    EXPECT_TRUE(m.awaiting_deal());
    EXPECT_EQ(m.apply(Action::pass()), ErrorCode::no_deal);
    deal(m);
    EXPECT_EQ(m.start_round(test::suit_per_seat()), ErrorCode::deal_incomplete);
}

TEST(Match, TheDealMovesOnAfterAScoredRound) {
    for (const Rules& rules : {kLevantine, kClassic}) {
        Match m = fresh(rules, Seat::s2);
        EXPECT_EQ(m.round().dealer(), Seat::s2);
        play_contract(m, Seat::s0, 7, Suit::spades);
        EXPECT_EQ(m.next_dealer(), Seat::s3);
    }
}

TEST(Match, PassedOutDealMovesToTheNextDealerInLevantine) {
    Match m = fresh(kLevantine, Seat::s1);
    pass_out(m);
    EXPECT_EQ(m.next_dealer(), Seat::s2);
    EXPECT_EQ(m.scored_rounds(), 0);
    EXPECT_EQ(m.pass_outs_in_row(), 1);
}

TEST(Match, PassedOutDealStaysWithTheSameDealerInClassic) {
    Match m = fresh(kClassic, Seat::s1);
    pass_out(m);
    EXPECT_EQ(m.next_dealer(), Seat::s1);
}

TEST(Match, EightPassOutsInARowCloseTheTable) {
    for (const Rules& rules : {kLevantine, kClassic}) {
        Match m(rules, Seat::s0);
        for (int i = 0; i < 7; ++i) {
            deal(m);
            pass_out(m);
        }
        EXPECT_EQ(m.status(), MatchStatus::in_progress);
        deal(m);
        pass_out(m);
        EXPECT_EQ(m.status(), MatchStatus::closed);
        EXPECT_FALSE(m.winner().has_value());
        EXPECT_EQ(m.start_round(test::suit_per_seat()), ErrorCode::match_over);
    }
}

TEST(Match, AScoredRoundResetsThePassOutCount) {
    Match m(kLevantine, Seat::s0);
    for (int i = 0; i < 7; ++i) {
        deal(m);
        pass_out(m);
    }
    deal(m);
    play_contract(m, Seat::s0, 7, Suit::spades);
    EXPECT_EQ(m.pass_outs_in_row(), 0);
    for (int i = 0; i < 7; ++i) {
        deal(m);
        pass_out(m);
    }
    EXPECT_EQ(m.status(), MatchStatus::in_progress);
    deal(m);
    pass_out(m);
    EXPECT_EQ(m.status(), MatchStatus::closed);
}

/// Plays rounds in which the declaring team is set by one trick at 13 (−13 and +1 to the
/// other side), alternating teams, so neither side ever nears the target.
/// Deal: s0 all spades but 2S + 2H, s1 hearts 3H-AH + 2C, s2 2S + clubs 3C-AC, s3 diamonds.
Hands twelve_of_thirteen() {
    return {test::cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H"),
            test::cards("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2C"),
            test::cards("2S 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"), CardSet::suit(Suit::diamonds)};
}

TEST(Match, TheRoundCapCountsOnlyScoredRoundsAndEqualScoresDraw) {
    Match m(kLevantine, Seat::s0);
    int played = 0;
    while (!m.over()) {
        ASSERT_EQ(m.start_round(twelve_of_thirteen()), ErrorCode::ok);
        if (played % 5 == 4) {  // passed-out deals never count toward the cap
            pass_out(m);
            ++played;
            continue;
        }
        const int scored = m.scored_rounds();
        // s0 and s1 alternate declaring 13 in their long suit; each takes exactly 12 tricks.
        play_contract(m, scored % 2 == 0 ? Seat::s0 : Seat::s1, 13, scored % 2 == 0 ? Suit::spades : Suit::hearts);
        ASSERT_FALSE(m.round().made());
        ++played;
    }
    EXPECT_EQ(m.scored_rounds(), 50);
    EXPECT_GT(played, 50);
    EXPECT_EQ(m.totals(), (std::array<int, 2>{-300, -300}));
    EXPECT_EQ(m.status(), MatchStatus::drawn);
    EXPECT_FALSE(m.winner().has_value());
}

TEST(Match, AtTheCapTheHigherScoreWins) {
    Rules r = kLevantine;
    r.round_cap = 3;
    Match m = fresh(r);
    play_contract(m, Seat::s0, 7, Suit::spades);  // +7 team 0
    deal(m);
    play_contract(m, Seat::s1, 7, Suit::clubs);  // team 1 set: -7, team 0 +13
    deal(m);
    play_contract(m, Seat::s0, 7, Suit::spades);  // 27 vs -7, cap reached
    EXPECT_EQ(m.status(), MatchStatus::won);
    EXPECT_EQ(m.winner(), Team::t0);
    EXPECT_FALSE(m.tiebreak());
}

TEST(Match, BracketDrawGoesToTheTeamThatWonTheLastRound) {
    Rules r = kLevantine;
    r.round_cap = 2;
    r.bracket_tiebreak = true;
    Match m(r, Seat::s0);
    ASSERT_EQ(m.start_round(twelve_of_thirteen()), ErrorCode::ok);
    play_contract(m, Seat::s0, 13, Suit::spades);  // team 0 -13, team 1 +1
    ASSERT_EQ(m.start_round(twelve_of_thirteen()), ErrorCode::ok);
    play_contract(m, Seat::s1, 13, Suit::hearts);  // team 1 -13, team 0 +1: -12 each
    EXPECT_EQ(m.totals(), (std::array<int, 2>{-12, -12}));
    EXPECT_EQ(m.status(), MatchStatus::won);
    EXPECT_EQ(m.winner(), Team::t0);  // team 0 gained the point in the last round
    EXPECT_TRUE(m.tiebreak());
}

TEST(Match, RejectedActionsChangeNothing) {
    Match m = fresh(kLevantine);
    const auto before = test::snapshot(m.round());
    EXPECT_EQ(m.apply(Action::name_trump(Suit::hearts)), ErrorCode::auction_open);
    EXPECT_EQ(m.apply(Seat::s3, Action::pass()), ErrorCode::out_of_turn);
    EXPECT_EQ(test::snapshot(m.round()), before);
    EXPECT_EQ(m.totals(), (std::array<int, 2>{0, 0}));
}

}  // namespace
}  // namespace tarneeb
