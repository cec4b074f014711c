// The heuristic bot's key plays on fixed small positions, its bidding floor, and the
// registry. Positions: dealer seat 3, seat 0 bids 7, everyone else passes, seat 0 names
// trump and leads; then the listed cards are played and the seat to act is asked.
#include <gtest/gtest.h>

#include "../test_util.hpp"
#include "tarneeb/bots/arena.hpp"
#include "tarneeb/bots/bid_model.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/levels.hpp"
#include "tarneeb/core/random.hpp"

namespace tarneeb {
namespace {

using test::card;
using test::cards;

// Deal 1: hearts split AH 3H | KH 4H 6H | QH 2H 7H | JH TH 9H 8H 5H.
Hands deal1() {
    return {cards("AH 3H AS KS QS 2C 3C 4C 5C 2D 3D 4D 5D"), cards("KH 4H 6H 2S 3S 4S 6C 7C 8C 6D 7D 8D 9D"),
            cards("QH 2H 7H 5S 6S 7S 9C TC JC TD JD QD KD"), cards("JH TH 9H 8H 5H 8S 9S TS JS QC KC AC AD")};
}
// Deal 2: seat 2 has no clubs; seat 0 holds AS KS and AH KH QH JH.
Hands deal2() {
    return {cards("2C 3C 4C AS KS AH KH QH JH 2D 3D 4D 5D"), cards("KC 5C 6C 2S 3S 2H 3H 4H 5H 6D 7D 8D 9D"),
            cards("4S 5S 6S 7S 8S 6H 7H 8H 9H TD JD QD KD"), cards("AC QC JC TC 9C 8C 7C QS JS TS 9S TH AD")};
}

/// The round after the auction (seat 0 declares 7), trump `trump` and `plays`.
/// Hands `h` with seat `a`'s card `ca` and seat `b`'s card `cb` exchanged.
Hands swapped(Hands h, int a, const char* ca, int b, const char* cb) {
    h[a] = (h[a] - card(ca)) | card(cb);
    h[b] = (h[b] - card(cb)) | card(ca);
    return h;
}

Round position(const Hands& hands, Suit trump, const std::string& plays, const Rules& rules = kLevantine) {
    Round r(rules, Seat::s3, hands);
    EXPECT_EQ(test::auction(r, {"7", "pass", "pass", "pass"}), ErrorCode::ok);
    EXPECT_EQ(r.apply(Action::name_trump(trump)), ErrorCode::ok);
    std::istringstream in(plays);
    for (std::string c; in >> c;) EXPECT_EQ(r.apply(Action::play(card(c))), ErrorCode::ok) << c;
    return r;
}

Card decide(const Round& r, const bots::HeuristicParams& params = {}) {
    bots::HeuristicBot bot(0, params);
    const Action a = bot.decide(SeatView(r, r.to_act()));
    EXPECT_EQ(a.kind, ActionKind::play);
    EXPECT_EQ(r.check(a), ErrorCode::ok);
    return a.card();
}

TEST(HeuristicPlay, DoesNotOvertakeAWinningPartner) {
    // Partner (seat 0) leads the master AH; seat 2 holds QH 7H 2H and plays low.
    EXPECT_EQ(decide(position(deal1(), Suit::spades, "AH 4H")), card("2H"));
}

TEST(HeuristicPlay, FollowsSuitSecondHandLow) {
    const Round r = position(deal1(), Suit::spades, "3H");
    const Card c = decide(r);
    EXPECT_EQ(c.suit(), Suit::hearts);  // follows suit
    EXPECT_EQ(c, card("4H"));           // second hand low, the king stays home
}

TEST(HeuristicPlay, ThirdHandHigh) {
    // Opponent's 6H is winning, the last player may beat anything but the AH: play the queen.
    EXPECT_EQ(decide(position(deal1(), Suit::spades, "3H 6H")), card("QH"));
}

TEST(HeuristicPlay, FourthHandWinsCheaply) {
    // 7H wins so far; seat 3 holds JH TH 9H 8H 5H and wins with the 8.
    EXPECT_EQ(decide(position(deal1(), Suit::spades, "3H 4H 7H")), card("8H"));
}

TEST(HeuristicPlay, FourthHandDoesNotWasteOnPartnersTrick) {
    // Seat 0 leads 3H, seat 1 wins with KH, seat 2 plays 2H: seat 3 (partner of seat 1) plays low.
    EXPECT_EQ(decide(position(deal1(), Suit::spades, "3H KH 2H")), card("5H"));
}

TEST(HeuristicPlay, RuffsALosingTrickWhenVoid) {
    // Opponent's KC wins; seat 2 has no clubs and ruffs with a spade (trump).
    const Card c = decide(position(deal2(), Suit::spades, "2C KC"));
    EXPECT_EQ(c.suit(), Suit::spades);
    EXPECT_EQ(c, card("4S"));  // as cheaply as possible
}

TEST(HeuristicPlay, DeclarerDrawsTrumpsWithTheMasterTrump) {
    EXPECT_EQ(decide(position(deal2(), Suit::spades, "")), card("AS"));
}

TEST(HeuristicPlay, LeadsAWinnerWhenItHasOne) {
    // Diamonds trump (seat 0's are small): lead a side-suit ace, not a loser.
    const Round r = position(deal2(), Suit::diamonds, "");
    const Card c = decide(r);
    EXPECT_TRUE(c == card("AS") || c == card("AH")) << to_string(c);
}

TEST(HeuristicPlay, FollowsLowUnderPartnersMaster) {
    EXPECT_EQ(decide(position(deal2(), Suit::diamonds, "AH 2H")), card("6H"));
}

TEST(HeuristicPlay, DiscardsInsteadOfRuffingPartnersSureWinner) {
    // Deal 2 with AC and 2C swapped: seat 0 leads the master AC; seat 2 has no clubs and
    // discards (from its weakest suit) instead of ruffing its partner's trick.
    const Hands h = swapped(deal2(), 0, "2C", 3, "AC");
    EXPECT_EQ(decide(position(h, Suit::spades, "AC 5C")), card("6H"));
}

// Issue 29's card play. Each position is one where the card play before issue 29 (every
// CardRule off and its old knobs) chose another card: both choices are checked, so each test
// fails if its rule is lost.
// Deal A: seat 0 holds the top trumps and small diamonds; seat 1 and seat 2 have no diamonds.
Hands dealA() {
    return {cards("AS KS QS 2D 3D 4D 5D 2H 3H 4H 2C 3C 4C"), cards("2S 3S 4S 5S 5H 6H 7H 8H 5C 6C 7C 8C 9C"),
            cards("6S 7S 8S 9S 9H TH JH QH TC JC QC KC AC"), cards("TS JS 6D 7D 8D 9D TD JD QD KD AD KH AH")};
}

TEST(HeuristicCardPlay, SecondHandVoidWaitsForThePartner) {
    // Seat 0 leads 5D; seat 1 has none, and its partner (seat 3, last to play) may still beat
    // the 5: it discards its lowest heart instead of spending a trump (old: ruffs with 2S).
    const Round r = position(dealA(), Suit::spades, "5D");
    EXPECT_EQ(decide(r), card("5H"));
    EXPECT_EQ(decide(r, bots::oldplay_params()), card("2S"));
}

TEST(HeuristicCardPlay, SecondHandRuffsLowAndKeepsTheMasterTrump) {
    // Seat 1 now holds AS 3S 4S 5S and seat 0 leads the master AD: seat 1 must ruff to win
    // it, and seat 2, yet to play, has shown no void in diamonds, so it cannot over-ruff: the
    // 3S does it (old: the AS, the only trump it thought safe).
    const Hands h = swapped(swapped(dealA(), 0, "AS", 1, "2S"), 0, "5D", 3, "AD");
    const Round r = position(h, Suit::spades, "AD");
    EXPECT_EQ(decide(r), card("3S"));
    EXPECT_EQ(decide(r, bots::oldplay_params()), card("AS"));
}

TEST(HeuristicCardPlay, ThirdHandRuffsLowWhenTheLastPlayerMustFollow) {
    // Deal 2 with AS and 8S swapped: seat 2 holds AS 7S 6S 5S 4S and no clubs; the opponent's
    // KC wins; seat 3 (last) has not shown out of clubs, so it must follow: ruff with the 4S.
    const Hands h = swapped(deal2(), 0, "AS", 2, "8S");
    const Round r = position(h, Suit::spades, "2C KC");
    EXPECT_EQ(decide(r), card("4S"));
    EXPECT_EQ(decide(r, bots::oldplay_params()), card("AS"));
}

// Deal B: seat 0 leads the 9H, seat 1 plays low; seat 2 holds KH 3H, seat 3 AH QH JH TH ...
Hands dealB() {
    return {cards("AS KS QS JS TS 9H 8H 2D 3D 4D 2C 3C 4C"), cards("2S 3S 4S 2H 4H 5D 6D 7D 8D 5C 6C 7C 8C"),
            cards("5S 6S 7S KH 3H 9D TD JD 9C TC JC QC KC"), cards("8S 9S AH QH JH TH 7H 6H 5H QD KD AD AC")};
}

TEST(HeuristicCardPlay, ThirdHandHighOverThePartnersBeatableCard) {
    // The partner's 9H wins so far, but the last player may hold the 10, jack or queen: the
    // king makes them useless (old: low, the partner's 9 left to be beaten).
    const Round r = position(dealB(), Suit::spades, "9H 2H");
    EXPECT_EQ(decide(r), card("KH"));
    EXPECT_EQ(decide(r, bots::oldplay_params()), card("3H"));
}

TEST(HeuristicCardPlay, TheChoiceNamesItsRule) {
    // bench/card_costs groups the cards by this label; it must be the card decide() plays.
    const Round r = position(dealB(), Suit::spades, "9H 2H");
    const bots::CardChoice c = bots::heuristic_card(SeatView(r, r.to_act()));
    EXPECT_EQ(c.card, card("KH"));
    EXPECT_STREQ(c.rule, "follow: third over partner");
}

TEST(HeuristicCardPlay, LeadsTheTopOfASequence) {
    // Seat 0 (declarer, one small trump) has no winner to cash: it leads the queen of
    // Q J 10 9, which drives out the ace and king, rather than low from its long broken clubs.
    const Hands h{cards("QH JH TH 9H 2S 2D 3D 4D 2C 4C 6C 8C TC"), cards("AS KS QS JS AH KH 8H 7H 5D 6D 7D 8D 9D"),
                  cards("TS 9S 8S 7S 6H 5H 4H TD JD QD 3C 7C 9C"), cards("6S 5S 4S 3S 3H 2H KD AD 5C JC QC KC AC")};
    const Round r = position(h, Suit::spades, "");
    EXPECT_EQ(decide(r), card("QH"));
    EXPECT_EQ(decide(r, bots::oldplay_params()), card("2C"));
}

TEST(HeuristicCardPlay, DeclarerDrawsTrumpsWithLengthBeforeCashing) {
    // Five small trumps, eight out (some of them the partner's): draw trumps before cashing
    // the AH (old: cashed the ace, as it drew only with more trumps than were out), with the
    // top of the sequence 6 5 4 3 2 (without kTrumpSequence: the lowest).
    const Hands h{cards("6S 5S 4S 3S 2S AH 2H 3H 2D 3D 4D 2C 3C"), cards("AS KS QS KH QH JH TH 5D 6D 7D 4C 5C 6C"),
                  cards("JS TS 9S 9H 8H 7H 8D 9D TD 7C 8C 9C TC"), cards("8S 7S 6H 5H 4H JD QD KD AD JC QC KC AC")};
    const Round r = position(h, Suit::spades, "");
    EXPECT_EQ(decide(r), card("6S"));
    bots::HeuristicParams lowest;
    lowest.card_rules &= ~bots::kTrumpSequence;
    EXPECT_EQ(decide(r, lowest), card("2S"));
    EXPECT_EQ(decide(r, bots::oldplay_params()), card("AH"));
}

Round auction_start(const Rules& rules, CardSet hand0, Seat dealer) {
    // Seat 0 gets `hand0`; the rest of the deck goes round the other seats.
    Hands h{};
    h[0] = hand0;
    int i = 0;
    for (Card c : CardSet::deck() - hand0) h[static_cast<std::size_t>(1 + (i++ % 3))] |= c;
    return Round(rules, dealer, h);
}

TEST(HeuristicBidding, NeverBidsHoldingNothing) {
    const CardSet nothing = cards("2C 3C 4C 5C 2D 3D 4D 2H 3H 4H 2S 3S 4S");
    for (const Rules& rules : {kLevantine, kClassic}) {
        for (Seat dealer : kSeats) {
            Round r = auction_start(rules, nothing, dealer);
            // Everyone before seat 0 bids as the list says, partner (seat 2) bidding 7 if it speaks.
            while (r.to_act() != Seat::s0) r.apply(r.to_act() == Seat::s2 && r.high_bid() == 0 ? Action::bid(7) : Action::pass());
            bots::HeuristicBot bot;
            EXPECT_TRUE(bot.decide(SeatView(r, Seat::s0)).is_pass()) << "dealer " << index(dealer);
        }
    }
    EXPECT_LT(bots::estimate_tricks(nothing, Suit::spades), 0.5);
}

TEST(HeuristicBidding, BidsAStrongHandAndNamesItsSuit) {
    const CardSet strong = cards("AS KS QS JS 9S 5S AH KH AD KD 2C 3C 4C");
    Round r = auction_start(kLevantine, strong, Seat::s3);
    bots::HeuristicBot bot;
    const Action a = bot.decide(SeatView(r, Seat::s0));
    ASSERT_FALSE(a.is_pass());
    EXPECT_GE(a.bid_value(), 9);
    EXPECT_EQ(bots::best_trump(strong), Suit::spades);
    // Classic pays the tricks won: bid just enough.
    Round c = auction_start(kClassic, strong, Seat::s3);
    EXPECT_EQ(bot.decide(SeatView(c, Seat::s0)), Action::bid(7));
}

TEST(HeuristicBidding, ClassicDealerMayEqual) {
    const CardSet strong = cards("AS KS QS JS 9S 5S AH KH AD KD 2C 3C 4C");
    Round r = auction_start(kClassic, strong, Seat::s0);  // seat 0 deals and speaks last
    ASSERT_EQ(test::auction(r, {"8", "pass", "pass"}), ErrorCode::ok);  // seat 1 (opponent) bid 8
    bots::HeuristicBot bot;
    EXPECT_EQ(bot.decide(SeatView(r, Seat::s0)), Action::bid(8));
}

TEST(Registry, KnowsEveryBotByName) {
    EXPECT_NE(bots::make_bot("random", 1), nullptr);
    EXPECT_NE(bots::make_bot("heuristic", 1), nullptr);
    EXPECT_EQ(bots::make_bot("nobody", 1), nullptr);
    EXPECT_EQ(bots::make_bot("heuristic", 1)->name(), "heuristic");
    EXPECT_NE(bots::make_bot("pimc", 1), nullptr);
    EXPECT_EQ(bots::make_bot("pimc", 1)->name(), "pimc");
    EXPECT_EQ(bots::bot_names(), "random, heuristic, pimc, learned, easy, medium, hard, expert");
}

TEST(Arena, EveryBotPlaysOnlyLegalActionsInWholeMatches) {
    for (const auto& info : bots::registry()) {
        // pimc solves every decision with DDS (seconds per round here): tests/bots/pimc_test.cpp
        // plays it through whole rounds instead of 40 whole matches.
        if (bots::pimc_options_of(info.name)) continue;  // pimc, and the level expert
        if (!info.make) continue;  // a test bot that sees every hand: tests/bots/cheater_test.cpp
        for (const Rules& rules : {kLevantine, kClassic}) {
            std::array<std::unique_ptr<bots::Bot>, 4> b;
            for (int s = 0; s < 4; ++s) b[static_cast<std::size_t>(s)] = info.make(static_cast<std::uint64_t>(s));
            const bots::Lineup lineup{b[0].get(), b[1].get(), b[2].get(), b[3].get()};
            for (std::uint64_t seed = 0; seed < 20; ++seed) {
                bots::LoopStats stats;
                const Match m = bots::play_match(rules, Seat::s0, seed, lineup, &stats);
                EXPECT_TRUE(m.over());
                EXPECT_EQ(stats.illegal_actions, 0u) << info.name;
            }
        }
    }
}

TEST(Arena, SameSeedSameMatch) {
    auto play = [] {
        auto a = bots::make_bot("random", 5), b = bots::make_bot("heuristic", 6), c = bots::make_bot("random", 7),
             d = bots::make_bot("heuristic", 8);
        return bots::play_match(kLevantine, Seat::s1, 99, {a.get(), b.get(), c.get(), d.get()});
    };
    const Match m1 = play(), m2 = play();
    ASSERT_EQ(m1.rounds().size(), m2.rounds().size());
    for (std::size_t i = 0; i < m1.rounds().size(); ++i) EXPECT_EQ(test::snapshot(m1.rounds()[i]), test::snapshot(m2.rounds()[i]));
}

}  // namespace
}  // namespace tarneeb

namespace tarneeb {
namespace {

TEST(HeuristicBidding, LevantineContractValueByHand) {
    // rules.md "Preset levantine": made pays the bid; set costs the bid and gives the defenders
    // their tricks. With a spread of almost nothing the tricks are the mean.
    EXPECT_NEAR(bots::levantine_contract_value(9.0, 0.01, 8), 8.0, 1e-9);
    EXPECT_NEAR(bots::levantine_contract_value(6.0, 0.01, 7), -(7 + 7), 1e-9);
    EXPECT_NEAR(bots::levantine_contract_value(0.0, 0.01, 7), -(7 + 13), 1e-9);
    // Half made at 8 (8 or more) and half set with 7 tricks: (8 - (8 + 6)) / 2.
    EXPECT_NEAR(bots::levantine_contract_value(7.5, 1e-3, 8), (8.0 - 14.0) / 2, 1e-6);
}

TEST(HeuristicBidding, NeverCompetesHoldingNothing) {
    // An opponent's standing bid makes passing cost points, but not enough to bid on nothing.
    const CardSet nothing = cards("2C 3C 4C 5C 2D 3D 4D 2H 3H 4H 2S 3S 4S");
    for (Seat dealer : kSeats) {
        Round r = auction_start(kLevantine, nothing, dealer);
        bool opponent_bid = false;
        while (r.to_act() != Seat::s0) {
            const bool opp = team_of(r.to_act()) != team_of(Seat::s0);
            r.apply(opp && !opponent_bid ? Action::bid(7) : Action::pass());
            opponent_bid = opponent_bid || opp;
        }
        if (!opponent_bid) continue;
        bots::HeuristicBot bot;
        EXPECT_TRUE(bot.decide(SeatView(r, Seat::s0)).is_pass()) << "dealer " << index(dealer);
    }
}

}  // namespace
}  // namespace tarneeb
