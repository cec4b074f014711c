// Tournaments as values (include/tarneeb/server/tournament.hpp): knockout brackets of 5, 8 and
// 13 teams (seeding, byes), winners moving on, forfeits, the bracket tie-break, a round-robin of
// 5 with its table of results and tie-breaks, and the JSON round trip the journal relies on.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>

#include "tarneeb/core/match.hpp"
#include "tarneeb/server/tournament.hpp"
#include "../test_util.hpp"

namespace tarneeb::server {
namespace {

using State = TournamentMatch::State;

TournamentSettings settings(TournamentFormat format, int size) {
    TournamentSettings s;
    s.name = "Cup";
    s.format = format;
    s.size = size;
    s.seat_seconds = 60;
    return s;
}

/// A tournament of `n` teams "a0/b0", "a1/b1"... whose ratings are entered in a shuffled order
/// so that seeding has something to do: team "ai/bi" is rated 2000 − 10·i (seed i + 1).
Tournament make(TournamentFormat format, int n) {
    Tournament t("T1", "org", settings(format, n));
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = (i * 7 + 3) % n;  // 7 is prime to every n used
    for (int i : order) {
        const auto err = t.enter({"a" + std::to_string(i), "b" + std::to_string(i)}, {true, true}, 2000 - 10 * i);
        EXPECT_FALSE(err) << *err;
    }
    EXPECT_FALSE(t.start());
    return t;
}

/// The team index of "ai/bi".
int team(const Tournament& t, int i) { return *t.team_of("a" + std::to_string(i)); }
int seed_of(const Tournament& t, std::optional<int> team_index) { return t.teams()[static_cast<std::size_t>(*team_index)].seed; }

/// Plays every ready match until the tournament ends; `winner(match)` picks the side that wins.
int play_all(Tournament& t, const std::function<int(const TournamentMatch&)>& winner) {
    int played = 0, table = 0;
    while (t.state() == TournamentState::running) {
        const auto ready = t.ready();
        EXPECT_FALSE(ready.empty());
        if (ready.empty()) break;
        for (int m : ready) {
            t.opened(m, "t" + std::to_string(++table), 1000);
            t.started(m);
            const int w = winner(t.matches()[static_cast<std::size_t>(m)]);
            std::array<int, 2> scores{};
            scores[static_cast<std::size_t>(w)] = 31;
            EXPECT_TRUE(t.finished(m, w, scores, false, "t" + std::to_string(table) + "-1"));
            ++played;
        }
    }
    return played;
}

int higher_seed(const TournamentMatch& m) { return *m.teams[0] < *m.teams[1] ? 0 : 1; }

TEST(Tournament, BracketOrderIsTheStandardSeeding) {
    EXPECT_EQ(bracket_order(4), (std::vector<int>{1, 4, 2, 3}));
    EXPECT_EQ(bracket_order(8), (std::vector<int>{1, 8, 4, 5, 2, 7, 3, 6}));
    const auto o16 = bracket_order(16);
    EXPECT_EQ(o16.size(), 16u);
    for (std::size_t i = 0; i < 16; i += 2) EXPECT_EQ(o16[i] + o16[i + 1], 17);  // s meets 17 − s
}

TEST(Tournament, EightTeamsSeededByRatingNoByes) {
    Tournament t = make(TournamentFormat::knockout, 8);
    EXPECT_EQ(t.rounds(), 3);
    ASSERT_EQ(t.matches().size(), 7u);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(t.teams()[static_cast<std::size_t>(team(t, i))].seed, i + 1);
    // Round 1: 1–8, 4–5, 2–7, 3–6, all ready at once; the later rounds wait.
    const std::vector<std::pair<int, int>> first{{1, 8}, {4, 5}, {2, 7}, {3, 6}};
    for (std::size_t k = 0; k < 4; ++k) {
        const auto& m = t.matches()[k];
        EXPECT_EQ(m.state, State::ready);
        EXPECT_EQ(std::pair(seed_of(t, m.teams[0]), seed_of(t, m.teams[1])), first[k]);
    }
    for (std::size_t k = 4; k < 7; ++k) EXPECT_EQ(t.matches()[k].state, State::waiting);
    EXPECT_EQ(play_all(t, higher_seed), 7);
    EXPECT_EQ(t.state(), TournamentState::finished);
    EXPECT_EQ(t.champion(), team(t, 0));
    // The final was seed 1 against seed 2.
    EXPECT_EQ(seed_of(t, t.matches()[6].teams[0]), 1);
    EXPECT_EQ(seed_of(t, t.matches()[6].teams[1]), 2);
}

TEST(Tournament, FiveTeamsGiveByesToTheTopThreeSeeds) {
    Tournament t = make(TournamentFormat::knockout, 5);
    EXPECT_EQ(t.rounds(), 3);
    // Slots 1 8 | 4 5 | 2 7 | 3 6: seeds 6, 7 and 8 are byes.
    std::set<int> byes;
    for (const auto& m : t.matches())
        if (m.round == 0 && m.bye) {
            EXPECT_EQ(m.state, State::done);
            EXPECT_TRUE(m.record.empty());
            byes.insert(seed_of(t, m.teams[static_cast<std::size_t>(m.winner)]));
        }
    EXPECT_EQ(byes, (std::set<int>{1, 2, 3}));
    // Ready at once: 4–5 in round 1, and 2–3 in round 2 (both came through byes).
    const auto ready = t.ready();
    ASSERT_EQ(ready.size(), 2u);
    const auto& a = t.matches()[static_cast<std::size_t>(ready[0])];
    const auto& b = t.matches()[static_cast<std::size_t>(ready[1])];
    EXPECT_EQ(a.round, 0);
    EXPECT_EQ(std::pair(seed_of(t, a.teams[0]), seed_of(t, a.teams[1])), std::pair(4, 5));
    EXPECT_EQ(b.round, 1);
    EXPECT_EQ(std::pair(seed_of(t, b.teams[0]), seed_of(t, b.teams[1])), std::pair(2, 3));
    // The lower seed wins everything it plays: seed 5 beats 4, then 1, then the winner of 2–3.
    EXPECT_EQ(play_all(t, [](const TournamentMatch& m) { return 1 - higher_seed(m); }), 4);
    EXPECT_EQ(t.champion(), team(t, 4));
}

TEST(Tournament, ThirteenTeamsEveryTeamPlacedOnceByesOnTop) {
    Tournament t = make(TournamentFormat::knockout, 13);
    EXPECT_EQ(t.rounds(), 4);
    EXPECT_EQ(t.matches().size(), 15u);
    std::multiset<int> placed;
    std::set<int> byes;
    for (const auto& m : t.matches()) {
        if (m.round != 0) continue;
        for (const auto& side : m.teams)
            if (side) placed.insert(seed_of(t, side));
        EXPECT_FALSE(!m.teams[0] && !m.teams[1]);  // never a bye against a bye
        if (m.bye) byes.insert(seed_of(t, m.teams[static_cast<std::size_t>(m.winner)]));
    }
    EXPECT_EQ(placed.size(), 13u);
    EXPECT_EQ(std::set<int>(placed.begin(), placed.end()).size(), 13u);
    EXPECT_EQ(byes, (std::set<int>{1, 2, 3}));
    EXPECT_EQ(t.ready().size(), 5u);  // 4–13, 5–12, 6–11, 7–10, 8–9
    EXPECT_EQ(play_all(t, higher_seed), 12);  // 13 teams, 12 matches played, 3 byes
    EXPECT_EQ(t.champion(), team(t, 0));
}

TEST(Tournament, SeatTimeAndForfeits) {
    Tournament t = make(TournamentFormat::knockout, 4);  // 1–4, 2–3, then the final
    t.opened(0, "t1", 1000);
    t.opened(1, "t2", 1000);
    EXPECT_TRUE(t.seat_time_over(60999).empty());
    EXPECT_EQ(t.seat_time_over(61000), (std::vector<int>{0, 1}));
    t.started(1);
    EXPECT_EQ(t.seat_time_over(61000), (std::vector<int>{0}));
    // Seed 1's team did not come: seed 4 wins 31–0 and moves on.
    EXPECT_TRUE(t.forfeit(0, {true, false}));
    EXPECT_FALSE(t.forfeit(0, {true, false}));  // counted once
    const auto& m0 = t.matches()[0];
    EXPECT_EQ(m0.winner, 1);
    EXPECT_EQ(m0.scores, (std::array<int, 2>{0, 31}));
    EXPECT_EQ(t.matches()[2].teams[0], team(t, 3));
    // Match 1 is played; a second report of its result changes nothing.
    EXPECT_TRUE(t.finished(1, 0, {31, 12}, false, "t2-1"));
    EXPECT_FALSE(t.finished(1, 1, {0, 31}, false, "t2-1"));
    EXPECT_EQ(t.matches()[2].teams[1], team(t, 1));
    // Neither team comes to the final: the higher seed (2) wins it.
    t.opened(2, "t3", 5000);
    EXPECT_TRUE(t.forfeit(2, {true, true}));
    EXPECT_EQ(t.state(), TournamentState::finished);
    EXPECT_EQ(t.champion(), team(t, 1));
}

TEST(Tournament, BracketTieBreakDecidesADrawAtTheCap) {
    Tournament t = make(TournamentFormat::knockout, 4);
    Rules rules = t.rules();
    EXPECT_TRUE(rules.bracket_tiebreak);
    EXPECT_FALSE(Tournament("R", "org", settings(TournamentFormat::round_robin, 4)).rules().bracket_tiebreak);
    // The engine's bracket tie-break (docs/rules.md "Round cap") with a cap of 2: −12 each, the
    // team that won the last round wins.
    rules.round_cap = 2;
    Match match(rules, Seat::s0);
    const Hands twelve{test::cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H"),
                       test::cards("3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 2C"),
                       test::cards("2S 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"), CardSet::suit(Suit::diamonds)};
    ASSERT_EQ(match.start_round(twelve), ErrorCode::ok);
    test::play_contract(match, Seat::s0, 13, Suit::spades);
    ASSERT_EQ(match.start_round(twelve), ErrorCode::ok);
    test::play_contract(match, Seat::s1, 13, Suit::hearts);
    ASSERT_EQ(match.totals(), (std::array<int, 2>{-12, -12}));
    ASSERT_TRUE(match.tiebreak());
    t.opened(0, "t1", 0);
    t.started(0);
    ASSERT_TRUE(t.finished(0, index(*match.winner()), match.totals(), match.tiebreak(), "t1-1"));
    EXPECT_EQ(t.matches()[0].winner, 0);
    EXPECT_TRUE(t.matches()[0].tiebreak);
    EXPECT_EQ(t.matches()[2].teams[0], t.matches()[0].teams[0]);
    // A table closed with no result (8 passed-out deals): the higher score, then the higher seed.
    t.opened(1, "t2", 0);
    ASSERT_TRUE(t.finished(1, -1, {0, 0}, false, "t2-1"));
    EXPECT_EQ(t.matches()[1].winner, higher_seed(t.matches()[1]));
}

TEST(Tournament, RoundRobinOfFiveTableOfResultsAndTieBreaks) {
    Tournament t = make(TournamentFormat::round_robin, 5);
    EXPECT_EQ(t.rounds(), 5);            // 5 teams: a bye each round
    ASSERT_EQ(t.matches().size(), 10u);  // every pair once
    std::set<std::pair<int, int>> pairs;
    for (const auto& m : t.matches()) pairs.insert({std::min(*m.teams[0], *m.teams[1]), std::max(*m.teams[0], *m.teams[1])});
    EXPECT_EQ(pairs.size(), 10u);
    // One round at a time, two matches each; each team plays at most once a round.
    EXPECT_EQ(t.ready().size(), 2u);
    for (int r = 0; r < 5; ++r) {
        std::set<int> seen;
        for (const auto& m : t.matches())
            if (m.round == r) {
                EXPECT_TRUE(seen.insert(*m.teams[0]).second && seen.insert(*m.teams[1]).second);
            }
    }
    // Results (team indices are seeds − 1): 0 beats everyone except 1 (drawn 20–20); 1 loses to
    // 2 and 3; 2, 3 and 4 beat one another in a circle.
    auto play = [&](int a, int b) -> std::pair<int, std::array<int, 2>> {
        auto score = [](int x, int y) -> std::pair<int, std::array<int, 2>> {
            if (x == 0 && y == 1) return {-1, {20, 20}};
            if (x == 0) return {0, {31, 10}};
            if (x == 1) return {1, {5, 31}};                         // 1 loses 5–31 to 2 and 3...
            if (x == 2 && y == 3) return {0, {31, 30}};              // 2 beats 3 by 1
            if (x == 3 && y == 4) return {0, {31, 30}};              // 3 beats 4 by 1
            return {1, {30, 31}};                                    // 4 beats 2 by 1
        };
        return score(a, b);
    };
    int table = 0;
    while (t.state() == TournamentState::running) {
        const auto ready = t.ready();
        ASSERT_FALSE(ready.empty());
        for (int m : ready) {
            const auto& match = t.matches()[static_cast<std::size_t>(m)];
            t.opened(m, "t" + std::to_string(++table), 0);
            auto [w, scores] = play(*match.teams[0], *match.teams[1]);
            if (w == 1 && *match.teams[0] == 1 && *match.teams[1] == 4) {  // 1 beats 4 31–5
                w = 0;
                scores = {31, 5};
            }
            ASSERT_TRUE(t.finished(m, w, scores, false, "t" + std::to_string(table) + "-1"));
        }
    }
    EXPECT_EQ(table, 10);
    const auto rows = t.standings();
    ASSERT_EQ(rows.size(), 5u);
    // 0: 3 wins 1 draw = 7 points. 1: beat 4, drew 0, lost to 2 and 3 = 3 points.
    EXPECT_EQ(rows[0].team, 0);
    EXPECT_EQ(rows[0].points, 7);
    EXPECT_EQ(rows[0].drawn, 1);
    for (const auto& r : rows) EXPECT_EQ(r.played, 4);
    // Team 2: lost 10–31 to 0, beat 1 31–5, beat 3 31–30, lost 30–31 to 4: −21+26+1−1 = +5, 4 points.
    // Team 3: lost to 0 (−21), beat 1 (+26), lost to 2 (−1), beat 4 (+1): +5, 4 points.
    // Team 4: lost to 0 (−21), lost to 1 (−26), beat 2 (+1), lost to 3 (−1): −47, 2 points.
    // 2 and 3 are equal on points and difference: the match between them (2 won) decides.
    EXPECT_EQ(rows[1].team, 2);
    EXPECT_EQ(rows[2].team, 3);
    EXPECT_EQ(rows[1].points, 4);
    EXPECT_EQ(rows[1].difference, 5);
    EXPECT_EQ(rows[2].difference, 5);
    EXPECT_EQ(rows[3].team, 1);
    EXPECT_EQ(rows[4].team, 4);
    EXPECT_EQ(t.champion(), 0);
}

TEST(Tournament, RegistrationErrorsAndPairingByRating) {
    TournamentSettings s = settings(TournamentFormat::knockout, 4);
    s.pairing = Pairing::by_rating;
    Tournament t("T2", "org", s);
    EXPECT_EQ(t.enter({"x", "y"}, {true, true}, 1500), "bad_team");  // single players enter alone
    const std::vector<std::pair<std::string, double>> players{{"p1", 1400}, {"p2", 1900}, {"p3", 1600}, {"p4", 1700},
                                                              {"p5", 1500}, {"p6", 1800}, {"p7", 1300}};
    for (const auto& [name, rating] : players) EXPECT_FALSE(t.enter({name, ""}, {true, true}, rating));
    EXPECT_EQ(t.enter({"p1", ""}, {true, true}, 1400), "already_entered");
    EXPECT_EQ(t.start(), "odd_players");
    EXPECT_FALSE(t.enter({"p8", ""}, {true, true}, 1200));
    EXPECT_EQ(t.enter({"p9", ""}, {true, true}, 1200), "tournament_full");
    EXPECT_FALSE(t.set_registration(false));
    EXPECT_EQ(t.enter({"p9", ""}, {true, true}, 1200), "registration_closed");
    EXPECT_FALSE(t.start());
    // Paired by rating: 1900+1800, 1700+1600, 1500+1400, 1300+1200.
    ASSERT_EQ(t.teams().size(), 4u);
    EXPECT_EQ(t.teams()[0].players, (std::array<std::string, 2>{"p2", "p6"}));
    EXPECT_EQ(t.teams()[3].players, (std::array<std::string, 2>{"p7", "p8"}));
    EXPECT_EQ(t.start(), "tournament_started");
    EXPECT_EQ(t.withdraw("p2"), "registration_closed");
    EXPECT_FALSE(t.cancel());
    EXPECT_EQ(t.cancel(), "tournament_over");
    EXPECT_TRUE(t.ready().empty());
}

TEST(Tournament, SettingsAreChecked) {
    EXPECT_TRUE(parse_tournament_settings(nlohmann::json{{"name", "Cup"}, {"size", 16}}));
    EXPECT_FALSE(parse_tournament_settings(nlohmann::json{{"name", ""}}));
    EXPECT_FALSE(parse_tournament_settings(nlohmann::json{{"name", std::string(65, 'x')}}));
    EXPECT_FALSE(parse_tournament_settings(nlohmann::json{{"name", "Cup"}, {"size", 65}}));
    EXPECT_FALSE(parse_tournament_settings(nlohmann::json{{"name", "Cup"}, {"size", 3}}));
    EXPECT_TRUE(parse_tournament_settings(nlohmann::json{{"name", "Cup"}, {"size", 3}, {"format", "round_robin"}}));
    EXPECT_FALSE(parse_tournament_settings(nlohmann::json{{"name", "Cup"}, {"size", 9}, {"format", "round_robin"}}));
    EXPECT_FALSE(parse_tournament_settings(nlohmann::json{{"name", "Cup"}, {"format", "swiss"}}));
    EXPECT_FALSE(parse_tournament_settings(nlohmann::json{{"name", "Cup"}, {"seat_seconds", 5}}));
    EXPECT_FALSE(parse_tournament_settings(nlohmann::json{{"name", "Cup"}, {"target", "31"}}));
    EXPECT_FALSE(parse_tournament_settings(nlohmann::json::array()));
}

TEST(Tournament, JsonRoundTripMidTournament) {
    Tournament t = make(TournamentFormat::knockout, 13);
    t.opened(t.ready()[0], "t1", 1000);
    const int m = *t.match_at("t1");
    t.started(m);
    ASSERT_TRUE(t.finished(m, 1, {12, 31}, false, "t1-1"));
    t.opened(t.ready()[0], "t2", 2000);
    const auto j = t.to_json();
    auto back = Tournament::from_json(nlohmann::json::parse(j.dump()));
    ASSERT_TRUE(back);
    EXPECT_EQ(back->to_json(), j);
    EXPECT_EQ(back->match_at("t2"), t.match_at("t2"));
    // Playing on from the copy gives the same champion as from the original.
    Tournament copy = *back;
    auto finish = [](Tournament& x) {
        if (auto m2 = x.match_at("t2")) x.finished(*m2, 0, {31, 0}, false, "t2-1");
        return play_all(x, higher_seed);
    };
    EXPECT_EQ(finish(copy), finish(t));
    EXPECT_EQ(copy.champion(), t.champion());
    EXPECT_EQ(copy.to_json(), t.to_json());
    EXPECT_FALSE(Tournament::from_json(nlohmann::json{{"id", "T"}}));
    auto bad = j;
    bad["matches"][0]["teams"][0] = 99;
    EXPECT_FALSE(Tournament::from_json(bad));
}


// Issue 27: a person named as a partner accepts before the team counts; an invitation never
// blocks its invitee; a player plays on until knocked out or the tournament is over.
TEST(Tournament, APartnerAcceptsBeforeTheTeamCounts) {
    Tournament t("T3", "org", settings(TournamentFormat::knockout, 4));
    // Layla names Omar: an invitation, not a team.
    EXPECT_FALSE(t.enter({"Layla", "Omar"}, {true, false}, 1500));
    EXPECT_TRUE(t.teams().empty());
    ASSERT_EQ(t.invites().size(), 1u);
    EXPECT_EQ(t.invitation_for("Omar"), (std::array<std::string, 2>{"Layla", "Omar"}));
    EXPECT_FALSE(t.invitation_for("Layla"));  // she accepted (she sent it)
    EXPECT_EQ(t.accept("Rana", 1500), "not_invited");
    // Layla sending it again: she has entered already, the invitation still waits for Omar.
    EXPECT_EQ(t.enter({"Layla", "Omar"}, {true, false}, 1500), "already_entered");
    ASSERT_EQ(t.invites().size(), 1u);
    // Layla cannot enter twice; Omar may still enter with someone else (the invitation does not hold him).
    EXPECT_EQ(t.enter({"Layla", "Rana"}, {true, false}, 1500), "already_entered");
    // The organiser names Omar and Rana: both must accept.
    EXPECT_FALSE(t.enter({"Omar", "Rana"}, {false, false}, 1500));
    EXPECT_FALSE(t.accept("Rana", 1500));
    EXPECT_TRUE(t.teams().empty());
    // Omar accepts Layla's (entering with her is the same as accepting): Rana's half-made team goes.
    EXPECT_FALSE(t.enter({"Omar", "Layla"}, {true, false}, 1600));
    ASSERT_EQ(t.teams().size(), 1u);
    EXPECT_EQ(t.teams()[0].players, (std::array<std::string, 2>{"Layla", "Omar"}));
    EXPECT_EQ(t.teams()[0].rating, 1600);
    EXPECT_TRUE(t.invites().empty());
    EXPECT_EQ(t.enter({"Rana", "Omar"}, {true, false}, 1500), "already_entered");
    // A bot partner needs no answer; declining is withdrawing.
    EXPECT_FALSE(t.enter({"Rana", "bot:heuristic"}, {true, false}, 1500));
    EXPECT_EQ(t.teams().size(), 2u);
    EXPECT_FALSE(t.enter({"Sami", "Huda"}, {true, false}, 1500));
    EXPECT_TRUE(t.plays_on("Sami"));
    EXPECT_FALSE(t.plays_on("Huda"));  // only invited
    EXPECT_FALSE(t.withdraw("Huda"));
    EXPECT_TRUE(t.invites().empty());
    EXPECT_EQ(t.withdraw("Huda"), "not_entered");
    // An invitation survives the journal.
    EXPECT_FALSE(t.enter({"Sami", "Huda"}, {true, false}, 1500));
    const auto back = Tournament::from_json(t.to_json());
    ASSERT_TRUE(back);
    EXPECT_EQ(back->invitation_for("Huda"), (std::array<std::string, 2>{"Sami", "Huda"}));
    // Two bot teams more, the start drops the unanswered invitation.
    EXPECT_FALSE(t.enter({"bot:heuristic", "bot:heuristic"}, {false, false}, 1500));
    EXPECT_FALSE(t.enter({"bot:random", "bot:random"}, {false, false}, 1500));
    EXPECT_FALSE(t.start());
    EXPECT_TRUE(t.invites().empty());
    EXPECT_FALSE(t.plays_on("Sami"));
    EXPECT_TRUE(t.plays_on("Layla"));
    // Layla's team loses its first match: it is out.
    const auto m = *t.match_at([&] {
        for (int i : t.ready()) t.opened(i, "tb" + std::to_string(i), 0);
        for (const auto& x : t.matches())
            if (x.state == TournamentMatch::State::playing && (x.teams[0] == t.team_of("Layla") || x.teams[1] == t.team_of("Layla")))
                return x.table;
        return std::string();
    }());
    const int side = t.matches()[static_cast<std::size_t>(m)].teams[0] == t.team_of("Layla") ? 0 : 1;
    EXPECT_TRUE(t.finished(m, 1 - side, {0, 7}, false, "rec"));
    EXPECT_FALSE(t.plays_on("Layla"));
    EXPECT_FALSE(t.cancel());
    EXPECT_FALSE(t.plays_on("Rana"));
}

}  // namespace
}  // namespace tarneeb::server
