// The card-by-card analysis of a played deal (include/tarneeb/solver/analysis.hpp): its values
// against `tarneeb analyze --after` (the real executable), its invariants over whole records,
// and the turning point of a deal built by hand.
#include "../cli_util.hpp"
#include "../test_util.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tarneeb/core/random.hpp"
#include "tarneeb/records/record.hpp"
#include "tarneeb/solver/analysis.hpp"

using namespace tarneeb;
using nlohmann::json;

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string record_path(int n) {
    char name[32];
    std::snprintf(name, sizeof name, "/records/rec%04d.json", n);
    return std::string(TARNEEB_TEST_DATA) + name;
}

/// Checks what every analysis of a deal with play must satisfy.
void check_invariants(const Round& played, const solver::DealAnalysis& a) {
    ASSERT_TRUE(a.contract);
    const Team decl = a.contract->team();
    ASSERT_EQ(static_cast<int>(a.positions.size()), played.cards_played());
    for (std::size_t k = 0; k < a.positions.size(); ++k) {
        const auto& p = a.positions[k];
        EXPECT_EQ(p.index, static_cast<int>(k));
        EXPECT_EQ(p.seat, played.played_by(p.index));
        EXPECT_EQ(p.played, played.plays()[k]);
        ASSERT_GT(p.cards.size, 0);
        int hi = -1, lo = 14;
        for (const auto& c : p.cards.cards()) {
            hi = std::max(hi, c.declarer_tricks);
            lo = std::min(lo, c.declarer_tricks);
        }
        EXPECT_EQ(p.best, team_of(p.seat) == decl ? hi : lo) << "position " << k;
        EXPECT_EQ(p.cost, std::abs(p.best - p.value)) << "position " << k;
        ASSERT_NE(p.cards.find(p.played), nullptr);
        EXPECT_EQ(p.value, p.cards.find(p.played)->declarer_tricks);
        // Double-dummy values are consistent: the value after a card is the next position's.
        if (k + 1 < a.positions.size()) {
            EXPECT_EQ(p.value, a.positions[k + 1].best) << "position " << k;
        }
    }
    if (played.phase() == Phase::scored) {
        EXPECT_EQ(a.positions.back().value, played.tricks(decl));
    }
}

/// Plays `cards` (record notation), then the lowest legal card for every seat to the end.
void play(Round& r, std::initializer_list<const char*> cards) {
    for (const char* c : cards) {
        const ParsedHand h = parse_hand(c);
        ASSERT_EQ(h.cards.size(), 1);
        ASSERT_EQ(r.apply(Action::play(h.cards.lowest())), ErrorCode::ok) << c;
    }
    ASSERT_EQ(r.play_out([](CardSet legal) { return legal.lowest(); }), ErrorCode::ok);
}

/// A deal built so that the declarer (seat 0, 13 spades bid) makes every trick by drawing
/// trumps first, and loses one when it leads its ace of hearts first: seat 1 ruffs it with
/// the two of spades.
Round thirteen_spades() {
    Hands h{};
    h[Seat::s0] = parse_hand("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH").cards;
    h[Seat::s1] = parse_hand("2S AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C").cards;
    h[Seat::s2] = parse_hand("2C AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D").cards;
    h[Seat::s3] = parse_hand("2D KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H").cards;
    Round r(kLevantine, Seat::s3, h);
    while (r.phase() == Phase::auction) {
        const bool ok = r.apply(r.to_act() == Seat::s0 ? Action::bid(13) : Action::pass()) == ErrorCode::ok;
        EXPECT_TRUE(ok);
        if (!ok) break;
    }
    EXPECT_EQ(r.apply(Action::name_trump(Suit::spades)), ErrorCode::ok);
    return r;
}

}  // namespace

TEST(Analysis, ValuesEqualTheAnalyzeAfterPath) {
    // For several records and positions: the library's values are exactly what
    // `tarneeb analyze --record F --deal N --after K --json` prints as declarer_tricks.
    int compared = 0, records_used = 0;
    // One record under the sanitizers: the solver (libdds, not instrumented) is most of the cost.
    for (int rec = 0; rec < 40 && records_used < test::under_sanitizers(3, 1); ++rec) {
        const records::Replay rep = records::replay(read_file(record_path(rec)));
        if (rep.error) continue;  // some examples are rejected records (their expected error)
        ++records_used;
        const auto& rounds = rep.match.rounds();
        int deal = -1;
        for (std::size_t i = 0; i < rounds.size(); ++i)
            if (rounds[i].phase() == Phase::scored) {
                deal = static_cast<int>(i);
                break;
            }
        ASSERT_NE(deal, -1) << "no deal was scored";
        const Round& played = rounds[static_cast<std::size_t>(deal)];
        solver::DealAnalysis a;
        ASSERT_EQ(solver::analyse_deal(played, a), solver::SolveError::ok);
        check_invariants(played, a);
        for (int k : {0, 3, 17, 34, 51}) {
            const auto r = test::run("analyze --json --record " + record_path(rec) + " --deal " + std::to_string(deal) +
                                     " --after " + std::to_string(k));
            ASSERT_EQ(r.status, 0);
            const json j = json::parse(r.out);
            const auto& pos = a.positions[static_cast<std::size_t>(k)];
            ASSERT_EQ(j["position"]["cards"].size(), static_cast<std::size_t>(pos.cards.size));
            EXPECT_EQ(j["position"]["to_play"], index(pos.seat));
            for (const auto& c : j["position"]["cards"]) {
                const ParsedHand h = parse_hand(c["card"].get<std::string>());
                const auto* v = pos.cards.find(h.cards.lowest());
                ASSERT_NE(v, nullptr) << c;
                EXPECT_EQ(v->declarer_tricks, c["declarer_tricks"].get<int>()) << "record " << rec << " after " << k;
                EXPECT_EQ(v->tricks, c["tricks"].get<int>());
                ++compared;
            }
            // The par is the CLI's too.
            EXPECT_EQ(solver::par_json(a.par, a.preset, a.dealer), j["par"]);
        }
    }
    EXPECT_EQ(records_used, test::under_sanitizers(3, 1));
    EXPECT_GT(compared, test::under_sanitizers(15, 4));
}

TEST(Analysis, TurningPointIsTheFirstCardThatChangesTheOutcome) {
    Round r = thirteen_spades();
    // The declarer leads the ace of hearts (seat 1 could ruff), seat 1 ruffs: the contract
    // of 13 is lost at card 0, by seat 0, for one trick.
    play(r, {"AH", "2S"});
    solver::DealAnalysis a;
    ASSERT_EQ(solver::analyse_deal(r, a), solver::SolveError::ok);
    check_invariants(r, a);
    EXPECT_EQ(a.positions[0].best, 13);
    EXPECT_EQ(a.positions[0].value, 12);
    EXPECT_EQ(a.positions[0].cost, 1);
    EXPECT_EQ(a.positions[1].cost, 0);  // the ruff is seat 1's best
    ASSERT_TRUE(a.turning_point);
    EXPECT_EQ(a.turning_point->index, 0);
    EXPECT_EQ(a.turning_point->seat, Seat::s0);
    EXPECT_EQ(a.turning_point->cost, 1);
    EXPECT_FALSE(a.turning_point->makes);
    EXPECT_EQ(a.made, std::optional<bool>(false));
    const json j = solver::analysis_json(a, 0);
    EXPECT_EQ(j["turning_point"], (json{{"index", 0}, {"seat", 0}, {"cost", 1}, {"makes", false}}));
    EXPECT_EQ(j["positions"].size(), 52u);
    EXPECT_EQ(j["declarer"], 0);
    EXPECT_EQ(j["bid"], 13);
    EXPECT_EQ(j["trump"], "S");
    EXPECT_EQ(j["taken"], (json{12, 1}));
}

TEST(Analysis, TheFirstChangeStaysTheTurningPointWhenTheContractIsSavedAgain) {
    Round r = thirteen_spades();
    // Seat 1 discards instead of ruffing: the contract makes again (cost 1 for the
    // defenders), but the turning point is still the declarer's card 0.
    play(r, {"AH", "3C"});
    solver::DealAnalysis a;
    ASSERT_EQ(solver::analyse_deal(r, a), solver::SolveError::ok);
    check_invariants(r, a);
    EXPECT_EQ(a.positions[1].best, 12);
    EXPECT_EQ(a.positions[1].value, 13);
    EXPECT_EQ(a.positions[1].cost, 1);
    ASSERT_TRUE(a.turning_point);
    EXPECT_EQ(a.turning_point->index, 0);
    EXPECT_EQ(a.made, std::optional<bool>(true));
}

TEST(Analysis, NoTurningPointWhenTheOutcomeNeverChanges) {
    Round r = thirteen_spades();
    play(r, {"AS"});  // trumps first: 13 tricks whatever anyone plays
    solver::DealAnalysis a;
    ASSERT_EQ(solver::analyse_deal(r, a), solver::SolveError::ok);
    check_invariants(r, a);
    EXPECT_FALSE(a.turning_point);
    EXPECT_TRUE(solver::analysis_json(a, 0)["turning_point"].is_null());
}

TEST(Analysis, PassedOutAndUnfinishedDealsAndStopping) {
    // A passed-out deal: par and table, no contract, no positions.
    Hands h = thirteen_spades().dealt_hands();
    Round passed(kLevantine, Seat::s3, h);
    while (passed.phase() == Phase::auction) ASSERT_EQ(passed.apply(Action::pass()), ErrorCode::ok);
    ASSERT_EQ(passed.phase(), Phase::passed_out);
    solver::DealAnalysis a;
    ASSERT_EQ(solver::analyse_deal(passed, a), solver::SolveError::ok);
    EXPECT_FALSE(a.contract);
    EXPECT_TRUE(a.positions.empty());
    EXPECT_FALSE(a.par.passed_out);  // seat 0 makes 13 spades
    const json j = solver::analysis_json(a, 2);
    EXPECT_TRUE(j["declarer"].is_null());
    EXPECT_TRUE(j["made"].is_null());
    EXPECT_TRUE(j["turning_point"].is_null());
    EXPECT_EQ(j["deal"], 2);

    // An unfinished deal: one position per card played.
    Round r = thirteen_spades();
    ASSERT_EQ(r.apply(Action::play(parse_hand("AH").cards.lowest())), ErrorCode::ok);
    ASSERT_EQ(r.apply(Action::play(parse_hand("2S").cards.lowest())), ErrorCode::ok);
    ASSERT_EQ(solver::analyse_deal(r, a), solver::SolveError::ok);
    EXPECT_EQ(a.positions.size(), 2u);
    EXPECT_FALSE(a.made);
    ASSERT_TRUE(a.turning_point);

    // Stopping between positions (the server's CPU budget).
    Round whole = thirteen_spades();
    play(whole, {});
    int calls = 0;
    EXPECT_EQ(solver::analyse_deal(whole, a, [&](int done) { return ++calls, done < 3; }), solver::SolveError::stopped);
    EXPECT_EQ(a.positions.size(), 3u);
    EXPECT_EQ(calls, 4);
}

TEST(Analysis, TheSolversOwnTableEqualsTheBatchTable) {
    // Solver::table (16 opening leads on one thread index, what analyse_deal uses) against
    // table() (DDS's CalcAllTables, checked against the oracle in oracle_test.cpp).
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        const Hands hands = deal_from_seed(seed, Seat::s0);
        solver::DdTable batch, own;
        ASSERT_EQ(solver::table(hands, batch), solver::SolveError::ok);  // no Solver alive here
        solver::Solver s;
        ASSERT_EQ(s.table(hands, own), solver::SolveError::ok);
        EXPECT_EQ(own, batch) << "seed " << seed;
    }
    solver::Solver s;
    solver::DdTable t;
    Hands bad = deal_from_seed(1, Seat::s0);
    bad[Seat::s0] = bad[Seat::s1];
    EXPECT_EQ(s.table(bad, t), solver::SolveError::duplicate_card);
}
