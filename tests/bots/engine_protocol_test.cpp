// The engine protocol's text without processes (include/tarneeb/bots/engine_protocol.hpp):
// notation, command splitting, the engine's lines, the host's feed of a known deal, and the
// round trip that matters: an engine that reads the feed rebuilds exactly the host's view of
// its seat (equal SeatViews), and the feed never names another seat's unplayed card.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "engine_leaks.hpp"
#include "tarneeb/bots/arena.hpp"
#include "tarneeb/bots/engine_protocol.hpp"
#include "tarneeb/core/random.hpp"
#include "../test_util.hpp"

namespace tarneeb {
namespace {

using bots::EngineFeed;
using bots::EngineGame;
using bots::EngineLine;

TEST(EngineProtocol, ActionTokensRoundTripInTheirPhaseOnly) {
    for (int b = 7; b <= 13; ++b) {
        EXPECT_EQ(bots::action_token(Action::bid(b)), std::to_string(b));
        EXPECT_EQ(bots::parse_action_token(std::to_string(b), Phase::auction), Action::bid(b));
    }
    EXPECT_EQ(bots::action_token(Action::pass()), "pass");
    EXPECT_EQ(bots::parse_action_token("pass", Phase::auction), Action::pass());
    for (Suit s : {Suit::clubs, Suit::diamonds, Suit::hearts, Suit::spades}) {
        const std::string t = bots::action_token(Action::name_trump(s));
        EXPECT_EQ(bots::parse_action_token(t, Phase::trump), Action::name_trump(s));
        EXPECT_EQ(bots::parse_action_token(std::string(1, static_cast<char>(t[0] - 'A' + 'a')), Phase::trump),
                  Action::name_trump(s));
    }
    for (Card c : CardSet::deck()) {
        EXPECT_EQ(bots::parse_action_token(bots::action_token(Action::play(c)), Phase::play), Action::play(c));
        EXPECT_EQ(bots::action_token(Action::play(c)).size(), 2u);
    }
    EXPECT_EQ(bots::parse_action_token("10h", Phase::play), Action::play(test::card("TH")));
    // Readable but illegal: the round refuses it later (an "illegal" fault, not garbage).
    EXPECT_EQ(bots::parse_action_token("14", Phase::auction), Action::bid(14));
    // Not the notation of the phase: garbage.
    for (const char* t : {"", "Pass", "08", "0", "7.0", " 7", "AS", "123", "S"})
        EXPECT_FALSE(bots::parse_action_token(t, Phase::auction)) << t;
    for (const char* t : {"", "SS", "7", "AS", "\u2660"}) EXPECT_FALSE(bots::parse_action_token(t, Phase::trump)) << t;
    for (const char* t : {"", "pass", "S", "1S", "AX", "AS "}) EXPECT_FALSE(bots::parse_action_token(t, Phase::play)) << t;
}

TEST(EngineProtocol, SplitCommandLikeAShellButRunsNone) {
    using V = std::vector<std::string>;
    EXPECT_EQ(bots::split_command("python3 my bot.py"), (V{"python3", "my", "bot.py"}));
    EXPECT_EQ(bots::split_command("  python3\t'my bot.py'  --x \"a b\" "), (V{"python3", "my bot.py", "--x", "a b"}));
    EXPECT_EQ(bots::split_command(R"(a\ b "c\"d" 'e\f' "$HOME" g;h|i >j)"),
              (V{"a b", "c\"d", "e\\f", "$HOME", "g;h|i", ">j"}));
    EXPECT_EQ(bots::split_command(R"(x"y"'z')"), (V{"xyz"}));
    EXPECT_EQ(bots::split_command("''"), (V{""}));
    EXPECT_EQ(bots::split_command(""), V{});
    EXPECT_FALSE(bots::split_command("a 'b"));
    EXPECT_FALSE(bots::split_command("a \"b"));
    EXPECT_FALSE(bots::split_command("a\\"));
}

TEST(EngineProtocol, EngineLinesAreReadStrictly) {
    using K = EngineLine::Kind;
    EXPECT_EQ(bots::parse_engine_line("id name My Bot 2").kind, K::id_name);
    EXPECT_EQ(bots::parse_engine_line("id name My Bot 2").text, "My Bot 2");
    EXPECT_EQ(bots::parse_engine_line("id author  A. N. Other \r").text, "A. N. Other");
    EXPECT_EQ(bots::parse_engine_line("ready").kind, K::ready);
    EXPECT_EQ(bots::parse_engine_line("ready\r").kind, K::ready);
    EXPECT_EQ(bots::parse_engine_line("action QS").kind, K::action);
    EXPECT_EQ(bots::parse_engine_line("action  QS ").text, "QS");
    EXPECT_EQ(bots::parse_engine_line("info depth 3").text, "depth 3");
    EXPECT_EQ(bots::parse_engine_line("error unsupported protocol").kind, K::error);
    const auto o = bots::parse_engine_line("option name samples type int default 64 min 1 max 4096");
    ASSERT_EQ(o.kind, K::option);
    EXPECT_EQ(o.option, (bots::EngineOption{"samples", "int", "64", 1, 4096}));
    EXPECT_EQ(bots::parse_engine_line(bots::option_line(o.option).substr(0, bots::option_line(o.option).size() - 1)).option,
              o.option);
    for (const char* g : {"", "action", "action QS now", "Action QS", "readyy", "ready now", "id", "id name",
                          "option name x type float default 1", "option name x type int default 1 min",
                          "option name x type int default 1 min a", "hello"})
        EXPECT_EQ(bots::parse_engine_line(g).kind, K::garbage) << g;
}

TEST(EngineProtocol, GoLineCarriesTheBudgetAndTheLegalActions) {
    const Round r(kLevantine, Seat::s0, test::mixed_deal());
    const SeatView v(r, Seat::s1);
    EXPECT_EQ(bots::go_line(v, 250), "go budget_ms 250 legal pass 7 8 9 10 11 12 13\n");
    const auto g = bots::parse_go("go budget_ms 250 legal pass 7 8");
    ASSERT_TRUE(g);
    EXPECT_EQ(g->budget_ms, 250);
    EXPECT_EQ(g->legal, (std::vector<std::string>{"pass", "7", "8"}));
    EXPECT_FALSE(bots::parse_go("go legal pass budget_ms 5"));
    EXPECT_FALSE(bots::parse_go("go budget_ms -1 legal pass"));
    EXPECT_EQ(bots::hello_line(), "tarneeb-engine 1\n");
    EXPECT_EQ(bots::setoption_line("samples", "16"), "setoption name samples value 16\n");
}

TEST(EngineProtocol, TheFeedOfAKnownDeal) {
    // Dealer 3: seat 0 calls first. Seat 0 bids 8, everyone else passes; trump H.
    Match m(kLevantine, Seat::s3);
    ASSERT_EQ(m.start_round(test::mixed_deal()), ErrorCode::ok);
    EngineFeed feed;
    std::string all = feed.sync(SeatView::of(m, Seat::s2));
    for (Action a : {Action::bid(8), Action::pass(), Action::pass(), Action::pass(), Action::name_trump(Suit::hearts)}) {
        ASSERT_EQ(m.apply(a), ErrorCode::ok);
        all += feed.sync(SeatView::of(m, Seat::s2));
    }
    for (int i = 0; i < 4; ++i) {
        ASSERT_EQ(m.apply(m.round().default_action()), ErrorCode::ok);
        all += feed.sync(SeatView::of(m, Seat::s2));
    }
    EXPECT_EQ(feed.sync(SeatView::of(m, Seat::s2)), "");  // nothing new
    EXPECT_EQ(all,
              "newmatch seat 2 rules levantine auction open scoring bid_value pass_out_dealer next min_bid 7 "
              "max_bid 13 target 31 round_cap 50 pass_out_close 8 bracket_tiebreak false total0 0 total1 0\n"
              "deal dealer 3 hand 5C 8C 9C TC 3H 4H 7H QH KH AH 3S 7S JS\n"
              "call 0 8\ncall 1 pass\ncall 2 pass\ncall 3 pass\ncontract 0 8\ntrump 0 H\n"
              // The timer's weakest cards: 3D led, 7D follows, seat 2 (no diamond) throws 3S,
              // 2D; the 7 of diamonds wins for seat 1: team 1 has one trick.
              "play 0 3D\nplay 1 7D\nplay 2 3S\nplay 3 2D\ntrick 1 0 1\n");
}

TEST(EngineProtocol, CustomRulesAndAPassedOutDeal) {
    Rules rules = kClassic;
    rules.target = 21;
    rules.bracket_tiebreak = true;
    Match m(rules, Seat::s0);
    ASSERT_EQ(m.start_round(test::mixed_deal()), ErrorCode::ok);
    EngineFeed feed;
    std::string all;
    for (int i = 0; i < 4; ++i) {
        ASSERT_EQ(m.apply(Action::pass()), ErrorCode::ok);
        all += feed.sync(SeatView::of(m, Seat::s1));
    }
    // Other match settings keep the preset's name; every knob is written anyway.
    EXPECT_NE(all.find("rules classic auction single_round_dealer_equals scoring tricks_won pass_out_dealer same "
                       "min_bid 7 max_bid 13 target 21 round_cap 50 pass_out_close 8 bracket_tiebreak true"),
              std::string::npos)
        << all;
    Rules odd = kLevantine;
    odd.pass_out_dealer = PassOutDealer::same;
    EXPECT_EQ(bots::rules_name(odd), "custom");
    EXPECT_TRUE(all.ends_with("call 1 pass\ncall 2 pass\ncall 3 pass\ncall 0 pass\npassout\n")) << all;
    EngineGame game;
    std::istringstream in(all);
    for (std::string line; std::getline(in, line);) EXPECT_EQ(game.apply(line), std::nullopt) << line;
    EXPECT_EQ(game.rules(), rules);
}

/// A player that also plays the engine's side of the protocol for its seat: every feed line
/// goes into an EngineGame, whose view must equal the host's view at every decision. Now and
/// then it "restarts" (a fresh feed and game), which the feed must rebuild from the view.
class Mirror final : public bots::Bot {
public:
    Mirror(std::unique_ptr<bots::Bot> inner, std::uint64_t seed) : inner_(std::move(inner)), rng_(seed) {}
    std::string_view name() const override { return "mirror"; }
    Action decide_call(const SeatView& v) override { return ask(v); }
    Action decide_trump(const SeatView& v) override { return ask(v); }
    Action decide_card(const SeatView& v) override { return ask(v); }
    void observe(const SeatView& v, Seat, Action) override { feed(v); }

    int compared = 0;
    int restarts = 0;
    std::string transcript;  ///< every line, as an engine would have read them

private:
    void feed(const SeatView& v) {
        const std::string lines = feed_.sync(v);
        transcript += lines;
        std::istringstream in(lines);
        for (std::string line; std::getline(in, line);) EXPECT_EQ(game_.apply(line), std::nullopt) << line;
    }
    Action ask(const SeatView& v) {
        if (rng_.below(40) == 0) {
            feed_.reset();
            game_ = EngineGame();
            ++restarts;
        }
        feed(v);
        EXPECT_EQ(game_.view(), v) << transcript.substr(transcript.size() > 2000 ? transcript.size() - 2000 : 0);
        const auto go = bots::parse_go(bots::go_line(v, 100));
        EXPECT_TRUE(go && bots::legal_tokens(game_.view()) == bots::legal_tokens(v));
        ++compared;
        transcript += bots::go_line(v, 100);
        return inner_->decide(v);
    }
    EngineFeed feed_;
    EngineGame game_;
    std::unique_ptr<bots::Bot> inner_;
    Rng rng_;
};

TEST(EngineProtocol, AnEngineRebuildsExactlyTheHostsViewOfItsSeatAndSeesNoHiddenCard) {
    int compared = 0, restarts = 0, matches = 0;
    const int per_preset = test::under_sanitizers(12, 4);  // a third under the sanitizers
    for (const Rules& base : {kLevantine, kClassic}) {
        for (std::uint64_t k = 0; k < static_cast<std::uint64_t>(per_preset); ++k) {
            Rules rules = base;
            rules.target = 15;
            // Random players pass out and bid high; heuristic ones make ordinary contracts.
            const char* kind = k % 3 == 0 ? "random" : "heuristic";
            BySeat<std::unique_ptr<Mirror>> players;
            bots::Lineup lineup{};
            for (Seat s : kSeats) {
                players[s] = std::make_unique<Mirror>(bots::make_bot(kind, derive_seed(k, index(s))), derive_seed(k, 10 + index(s)));
                lineup[s] = players[s].get();
            }
            const Match m = bots::play_match(rules, seat(static_cast<int>(k)), derive_seed(99, k), lineup);
            EXPECT_TRUE(m.over());
            ++matches;
            for (Seat s : kSeats) {
                compared += players[s]->compared;
                restarts += players[s]->restarts;
                const auto report = test::engine_leaks(players[s]->transcript);
                EXPECT_TRUE(report.leaks.empty()) << report.leaks.front();
                EXPECT_GT(report.cards_checked, 100);
            }
        }
    }
    EXPECT_EQ(matches, 2 * per_preset);
    EXPECT_GT(compared, 5000 * per_preset / 12);
    EXPECT_GT(restarts, 50 * per_preset / 12);
}

TEST(EngineProtocol, ANewMatchIsAnnouncedWhenTheSeatOrTheScoresDoNotContinue) {
    // Duplicate play: the same bot plays deal k in seat 0, then the same cards in seat 1.
    const Hands hands = deal_from_seed(7, Seat::s0);
    EngineFeed feed;
    std::string lines;
    for (Seat s : {Seat::s0, Seat::s1}) {
        Match m(kLevantine, Seat::s0);
        ASSERT_EQ(m.start_round(hands), ErrorCode::ok);
        lines += feed.sync(SeatView::of(m, s));
    }
    std::size_t newmatches = 0;
    for (std::size_t at = 0; (at = lines.find("newmatch", at)) != std::string::npos; ++at) ++newmatches;
    EXPECT_EQ(newmatches, 2u);
    // The next deal of the same match continues it: no newmatch, one more deal.
    Match m(kLevantine, Seat::s0);
    ASSERT_EQ(m.start_round(hands), ErrorCode::ok);
    EngineFeed f2;
    std::string more = f2.sync(SeatView::of(m, Seat::s2));
    test::play_contract(m, Seat::s1, 7, Suit::spades);
    more += f2.sync(SeatView::of(m, Seat::s2));
    ASSERT_EQ(deal_next_from_seed(m, 3), ErrorCode::ok);
    const std::string next = f2.sync(SeatView::of(m, Seat::s2));
    EXPECT_TRUE(next.starts_with("deal dealer 1 hand ")) << next;
    EXPECT_NE(more.find("score "), std::string::npos);
}

TEST(EngineProtocol, TheEngineSideRefusesWhatTheRulesRefuse) {
    EngineGame g;
    EXPECT_TRUE(g.apply("deal dealer 0 hand 2C"));  // before newmatch
    EXPECT_EQ(g.apply("newmatch seat 1 rules levantine future_key 5"), std::nullopt);  // unknown keys are skipped
    EXPECT_TRUE(g.apply("newmatch seat 9 rules levantine"));
    EXPECT_TRUE(g.apply("newmatch seat 1 rules levantine target"));
    // bids are 7..13: a wider range would list more calls than a round holds (a fuzz finding)
    EXPECT_TRUE(g.apply("newmatch seat 1 rules levantine max_bid 26"));
    EXPECT_TRUE(g.apply("newmatch seat 1 rules levantine min_bid 1"));
    EXPECT_TRUE(g.apply("newmatch seat 1 rules levantine min_bid 12 max_bid 11"));
    EXPECT_EQ(g.apply("newmatch seat 1 rules levantine min_bid 8 max_bid 12"), std::nullopt);
    EXPECT_TRUE(g.apply("deal dealer 0 hand 2C 4C JC KC 7D JD AD 9H 2S 6S 9S TS"));  // 12 cards
    EXPECT_EQ(g.apply("deal dealer 0 hand 2C 4C JC KC 7D JD AD 9H 2S 6S 9S TS KS"), std::nullopt);
    EXPECT_TRUE(g.apply("call 2 8"));        // out of turn: seat 1 calls first
    EXPECT_TRUE(g.apply("call 1 6"));        // bad bid
    EXPECT_EQ(g.apply("call 1 8"), std::nullopt);
    EXPECT_TRUE(g.apply("call 2 8"));        // too low
    EXPECT_TRUE(g.apply("contract 1 8"));    // the auction is open
    for (const char* c : {"call 2 pass", "call 3 pass", "call 0 pass", "contract 1 8", "trump 1 S", "play 1 KS"})
        EXPECT_EQ(g.apply(c), std::nullopt) << c;
    EXPECT_TRUE(g.apply("play 2 KS"));       // already played
    EXPECT_TRUE(g.apply("play 3 2D"));       // out of turn
    EXPECT_EQ(g.apply("play 2 AS"), std::nullopt);
    EXPECT_TRUE(g.apply("play 3 2S"));       // this seat's own card
    EXPECT_EQ(g.apply("play 3 3D"), std::nullopt);  // seat 3 shows out of spades
    EXPECT_EQ(g.apply("play 0 4S"), std::nullopt);
    EXPECT_TRUE(g.apply("trick 1 1 0"));     // seat 2's ace won
    EXPECT_EQ(g.apply("trick 2 1 0"), std::nullopt);
    EXPECT_EQ(g.apply("play 2 5S"), std::nullopt);
    EXPECT_TRUE(g.apply("play 3 7S"));       // seat 3 has no spade left
    EXPECT_TRUE(g.apply("nonsense"));
    EXPECT_TRUE(g.view().shown_void(Seat::s3, Suit::spades));
    EXPECT_EQ(g.view().hand(), test::cards("2C 4C JC KC 7D JD AD 9H 2S 6S 9S TS"));
}

}  // namespace
}  // namespace tarneeb
