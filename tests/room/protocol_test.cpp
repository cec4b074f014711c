// The protocol adapter (include/tarneeb/room/protocol.hpp): the table message every recipient
// gets is the plain encoding, whatever the sharing does; hands, legal and default actions go
// only to their seats; the journal's stored form reads back as the same entry.
#include <algorithm>
#include <limits>
#include <variant>

#include <gtest/gtest.h>

#include "../test_util.hpp"
#include "hidden_check.hpp"
#include "tarneeb/bots/bot.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/cluster/cluster_link.hpp"
#include "tarneeb/room/protocol.hpp"

namespace tarneeb::server {
namespace {

using nlohmann::json;

/// The table's start with its two seeds drawn in order from `rng` (two rng.next() in one call's
/// arguments are drawn in an order the compiler chooses: GCC and clang deal different matches).
Change prepare_start(const Table& t, Rng& rng) {
    const std::uint64_t seed = rng.next();
    const std::uint64_t deal_seed = rng.next();
    return t.prepare_start(seed, deal_seed);
}

/// The bytes of a recipient's table message, from its plain encoding, as the hall has always
/// sent them: the recipient's own keys first (default_action, join_code, legal, timeout_action,
/// you), then the shared keys as dump() writes them (sorted), the hand first in "round".
std::string expected_bytes(json plain) {
    std::string out = "{";
    for (const char* k : {"default_action", "join_code", "legal", "timeout_action", "you"}) {
        if (!plain.contains(k)) continue;
        out += json(k).dump() + ":" + plain[k].dump() + ",";
        plain.erase(k);
    }
    std::optional<json> hand;
    if (plain["round"].is_object() && plain["round"].contains("hand")) {
        hand = plain["round"]["hand"];
        plain["round"].erase("hand");
    }
    std::string shared = plain.dump();
    if (hand) shared.insert(shared.find("\"round\":{") + 9, "\"hand\":" + hand->dump() + ",");
    return out + shared.substr(1);
}

/// Checks every recipient's message of the table's current change (the events just taken)
/// against the plain encoding: seats 0..3 and a spectator.
/// `history` is the table's HistoryCache, kept across its changes as the hall keeps it: the
/// message that writes the cached "history" text equals the plain encoding too.
/// `every` > 1 checks one recipient in `every` (by the table's version, so each in turn), and all
/// of them when the change ends a trick, a round or the match.
void check_messages(const Table& t, const std::vector<TableEvent>& events, Millis now, int& checked,
                    HistoryCache* history = nullptr, int every = 1) {
    const TableMessage message(t, 2, events, now);
    std::optional<TableMessage> cached;
    if (history) cached.emplace(t, 2, events, now, history);
    const bool ends_something = std::any_of(events.begin(), events.end(), [](const TableEvent& e) {
        return std::holds_alternative<event::TrickWon>(e) || std::holds_alternative<event::RoundScored>(e) ||
               std::holds_alternative<event::PassedOut>(e) || std::holds_alternative<event::MatchOver>(e);
    });
    for (int s = -1; s < 4; ++s) {
        if (!ends_something && (t.version() + static_cast<std::uint64_t>(s + 1)) % static_cast<std::uint64_t>(every) != 0)
            continue;
        const std::optional<Seat> seat = s < 0 ? std::nullopt : std::optional<Seat>(tarneeb::seat(s));
        const std::string text = message.to(seat);
        const json plain = table_message_json(t, seat, 2, events, now);
        ASSERT_EQ(json::parse(text), plain) << "seat " << s << " version " << t.version() << "\n" << text;
        ASSERT_EQ(text, expected_bytes(plain)) << "seat " << s << " version " << t.version();
        if (cached) {
            ASSERT_EQ(cached->to(seat), text) << "seat " << s << " version " << t.version();
        }
        // Without the history (a recipient that has it): the same message minus that key.
        if (s <= 0) {
            json no_history = plain;
            no_history.erase("history");
            ASSERT_EQ(json::parse(message.to(seat, false, false)), no_history) << "seat " << s;
            ASSERT_EQ(message.to(seat, false, false), expected_bytes(no_history)) << "seat " << s;
        }
        if (plain["round"].is_object()) {
            EXPECT_EQ(plain["round"].contains("hand"), seat.has_value());
        }
        // The keys drawn from one seat's hand (legal actions, the default action: a default
        // trump is the hand's longest suit) reach only that seat, and only on its turn.
        const bool on_turn = seat && t.state() == TableState::playing && t.match().has_round() &&
                             !t.match().round().over() && t.match().round().to_act() == *seat;
        if (on_turn) {
            const SeatView view = SeatView::of(t.match(), *seat);
            EXPECT_EQ(plain["default_action"], action_json(view.default_action())) << "seat " << s;
            EXPECT_EQ(plain["legal"].size(), static_cast<std::size_t>(view.legal_actions().size())) << "seat " << s;
        } else {
            EXPECT_TRUE(plain["default_action"].is_null()) << "seat " << s << " version " << t.version();
            EXPECT_TRUE(plain["timeout_action"].is_null()) << "seat " << s << " version " << t.version();
            EXPECT_TRUE(plain["legal"].empty()) << "seat " << s << " version " << t.version();
        }
        EXPECT_EQ(plain["you"].is_null(), !seat.has_value());
        // A private table's join code goes only to its creator's message (the hall says who that is).
        const std::string creators = message.to(seat, /*creator=*/true);
        const json creators_plain = table_message_json(t, seat, 2, events, now, /*creator=*/true);
        ASSERT_EQ(json::parse(creators), creators_plain);
        ASSERT_EQ(creators, expected_bytes(creators_plain));
        EXPECT_FALSE(plain.contains("join_code"));
        if (t.settings().is_private) {
            EXPECT_EQ(creators_plain["join_code"], t.settings().code);
            EXPECT_EQ(text.find(t.settings().code), std::string::npos);
        } else {
            EXPECT_FALSE(creators_plain.contains("join_code"));
        }
        // The turn's time left, on the server's clock, next to its deadline.
        if (t.deadline()) {
            EXPECT_EQ(plain["remaining_ms"], std::max<Millis>(0, *t.deadline() - now));
        } else {
            EXPECT_TRUE(plain["remaining_ms"].is_null());
        }
        ++checked;
    }
}

// A quick-play table (issue 28): "quick" and "fill_ms" while it waits for people, as the plain
// encoding writes them; its fill (bots, then the start) committed entry by entry.
TEST(Protocol, SharedTableMessageOfAQuickPlayTableEqualsThePlainEncoding) {
    TableSettings settings;
    settings.quick = true;
    settings.quick_rating = 1523;
    TableTiming timing;
    timing.quick_bot = "heuristic";
    Table t("t1", settings, timing, [](std::string_view name, std::uint64_t seed) { return bots::make_bot(name, seed); });
    Millis now = 1'767'225'600'000;
    int checked = 0;
    HistoryCache history;
    check_messages(t, t.take_events(), now, checked, &history);
    EXPECT_FALSE(t.fill_at()) << "nobody sits yet";
    const Change sit = t.prepare_sit(Seat::s1, "Layla");
    ASSERT_TRUE(sit.ok());
    t.commit(sit.entry(), now);
    ASSERT_EQ(t.fill_at(), now + timing.quick_fill_ms);
    now += 1234;
    check_messages(t, t.take_events(), now, checked, &history);
    EXPECT_FALSE(t.prepare_due(now, [] { return std::uint64_t{5}; })) << "not yet";
    now = *t.fill_at();
    std::uint64_t seed = 100;
    const auto fill = t.prepare_due(now, [&] { return ++seed; });
    ASSERT_TRUE(fill && fill->ok());
    EXPECT_EQ(fill->commits, 4u) << "three bots and the start";
    for (std::size_t i = fill->entries.size() - fill->commits; i < fill->entries.size(); ++i) t.commit(fill->entries[i], now);
    EXPECT_EQ(t.state(), TableState::playing);
    EXPECT_FALSE(t.fill_at());
    check_messages(t, t.take_events(), now, checked, &history);
    EXPECT_GE(checked, 3);
}

TEST(Protocol, SharedTableMessageEqualsThePlainEncodingForAWholeMatch) {
    for (const bool is_private : {false, true}) {
        TableSettings settings;
        settings.is_private = is_private;
        if (is_private) settings.code = "K3X9Q2";
        // Several rounds (each message carries every finished one); fewer under the sanitizers,
        // where the plain encoding's JSON (test code at -O0) made this test a minute long, and
        // there one recipient a change but every recipient of a change that ends a trick or more.
        settings.target = test::under_sanitizers(11, 8);
        const int every = test::under_sanitizers(1, 5);
        settings.turn_seconds = 30;  // timeout_action is sent
        Table t("t1", settings, TableTiming{}, [](std::string_view name, std::uint64_t seed) { return bots::make_bot(name, seed); });
        Millis now = 1'767'225'600'000;
        int checked = 0;
        HistoryCache history;
        // A name with every character the writer escapes or passes through as it is.
        const std::array<std::string, 4> names{"Layla", "Omar \"O\" \\ \t\x01", "دينا", "Eli"};
        for (Seat s : kSeats) {
            const Change c = t.prepare_sit(s, names[static_cast<std::size_t>(index(s))]);
            ASSERT_TRUE(c.ok());
            t.commit(c.entry(), now);
            check_messages(t, t.take_events(), now, checked, &history, every);
        }
        Rng rng(7);
        const Change start = prepare_start(t, rng);
        ASSERT_TRUE(start.ok());
        t.commit(start.entry(), now);
        check_messages(t, t.take_events(), now, checked, &history, every);
        bool finished_trick_seen = false;
        while (t.state() == TableState::playing) {
            ASSERT_LT(checked, 100000);
            const Round& r = t.match().round();
            const SeatView view = SeatView::of(t.match(), r.to_act());
            const auto legal = view.legal_actions();
            const Action a = legal[static_cast<int>(rng.below(static_cast<std::uint64_t>(legal.size())))];
            const Change c = t.prepare_act(r.to_act(), a, t.version(), rng.next());
            ASSERT_TRUE(c.ok()) << to_string(*c.error);
            now += 1000;
            t.commit(c.entry(), now);
            check_messages(t, t.take_events(), now, checked, &history, every);
            if (t.state() == TableState::playing && t.match().round().tricks_played() > 0) finished_trick_seen = true;
            // The private table's join code is checked through its first round and the
            // second's first action; the public table plays the whole match.
            if (is_private && t.match().rounds().size() > 1) break;
        }
        EXPECT_TRUE(finished_trick_seen);
        if (is_private) {
            EXPECT_GT(checked, 200 / every);
            continue;
        }
        EXPECT_GT(t.match().rounds().size(), test::under_sanitizers(2, 1)) << "checked " << checked;
        // The finished table says how the match ended, as the match_over event did.
        const json spectator = table_message_json(t, std::nullopt, 0, {}, now);
        ASSERT_TRUE(spectator["result"].is_object());
        EXPECT_EQ(spectator["result"]["status"], std::string(to_string(t.match().status())));
        EXPECT_GT(checked, test::under_sanitizers(500, 150) / every) << "rounds " << t.match().rounds().size();
        // The next match starts the cached history again ([] until its first round ends), and
        // its rounds are appended to it as they end.
        const Change again = prepare_start(t, rng);
        ASSERT_TRUE(again.ok()) << to_string(*again.error);
        t.commit(again.entry(), now);
        check_messages(t, t.take_events(), now, checked, &history, every);
        EXPECT_EQ(history.text(t), "[]");
        while (t.state() == TableState::playing && t.match().rounds().size() < 3) {
            const SeatView view = SeatView::of(t.match(), t.match().round().to_act());
            const Action a = view.legal_actions()[0];
            const Change c = t.prepare_act(view.seat(), a, t.version(), rng.next());
            ASSERT_TRUE(c.ok()) << to_string(*c.error);
            t.commit(c.entry(), ++now);
            check_messages(t, t.take_events(), now, checked, &history, every);
        }
        EXPECT_EQ(history.text(t), history_json(t.match()).dump());
    }
}

// "history" (docs/protocol.md "table"): after each round ends, the finished rounds of the
// match, each with the engine's tricks (exactly the round's plays), calls, contract, scores.
// The table message writes its events straight to text: the same bytes as the plain encoding
// for every kind of event, with names that need escapes.
TEST(Protocol, EventsTextEqualsThePlainEncodingForEveryKindOfEvent) {
    const std::string odd = "Omar \"O\" \\ \t\x01 دينا";
    const std::vector<TableEvent> events{
        event::Seated{Seat::s1, odd, false, ""},
        event::Seated{Seat::s2, "heuristic 2", true, "heuristic"},
        event::Left{Seat::s3, odd},
        event::MatchStarted{4},
        event::Deal{3, Seat::s2},
        event::Acted{Seat::s0, Action::pass(), false},
        event::Acted{Seat::s1, Action::bid(9), true},
        event::Acted{Seat::s2, Action::name_trump(Suit::hearts), false},
        event::Acted{Seat::s3, Action::play(*parse_card("QS")), true},
        event::TrickWon{Seat::s1, 7, ByTeam<int>{3, 4}},
        event::RoundScored{Seat::s2, 8, false, ByTeam<int>{5, 8}, ByTeam<int>{-8, 5}, ByTeam<int>{12, 30}},
        event::PassedOut{2},
        event::MatchOver{MatchStatus::won, Team::t1, ByTeam<int>{12, 31}, "m-123"},
        event::MatchOver{MatchStatus::drawn, std::nullopt, ByTeam<int>{31, 31}, "m-124"},
        event::Disconnected{Seat::s0},
        event::BotTookOver{Seat::s1},
        event::Reclaimed{Seat::s2},
    };
    EXPECT_EQ(events_text(events), events_json(events).dump());
    for (const auto& e : events) EXPECT_EQ(events_text({e}), events_json({e}).dump());
    EXPECT_EQ(events_text({}), "[]");
}

TEST(Protocol, HistoryHasEveryFinishedRoundAndOnlyPlayedCards) {
    TableSettings settings;
    settings.turn_seconds = 0;
    settings.target = test::under_sanitizers(41, 16);  // fewer rounds under the sanitizers
    Table t("t1", settings, TableTiming{}, [](std::string_view name, std::uint64_t seed) { return bots::make_bot(name, seed); });
    for (Seat s : kSeats) t.commit(t.prepare_sit(s, "p" + std::to_string(index(s))).entry(), 0);
    EXPECT_EQ(table_message_json(t, std::nullopt, 0, {}, 0)["history"], json::array());  // no match yet
    Rng rng(5);
    t.commit(prepare_start(t, rng).entry(), 0);
    std::size_t rounds_seen = 0;
    while (t.state() == TableState::playing) {
        const Round& r = t.match().round();
        const auto legal = r.legal_actions();
        const Action a = legal[static_cast<int>(rng.below(static_cast<std::uint64_t>(legal.size())))];
        t.commit(t.prepare_act(r.to_act(), a, t.version(), rng.next()).entry(), 0);
        t.take_events();
        const Match& m = t.match();
        const std::size_t finished = m.rounds().size() - (m.round().over() ? 0 : 1);
        // A round in play is checked at its first card and at its 27th (its own cards are not
        // in the history yet); every round when it ends. (After every action, a whole match's
        // growing history took two minutes under ASan.)
        const std::size_t played = m.round().over() ? 0 : m.round().plays().size();
        if (finished == rounds_seen && played != 1 && played != 27) continue;
        const json history = table_message_json(t, Seat::s1, 0, {}, 0)["history"];
        ASSERT_EQ(history.size(), finished);
        if (finished == rounds_seen) continue;
        rounds_seen = finished;
        // The round that just ended, checked against the engine's round.
        const Round& done = m.rounds()[finished - 1];
        const json& h = history.back();
        EXPECT_EQ(h["number"], finished);
        EXPECT_EQ(h["dealer"], index(done.dealer()));
        EXPECT_EQ(h["passed_out"], done.phase() == Phase::passed_out);
        EXPECT_EQ(h["calls"].size(), done.calls().size());
        for (Team team : {Team::t0, Team::t1}) {
            const auto i = static_cast<std::size_t>(index(team));
            EXPECT_EQ(h["taken"][i], done.tricks(team));
            EXPECT_EQ(h["points"][i], done.points(team));
            EXPECT_EQ(h["totals"][i], m.totals_after(static_cast<int>(finished - 1))[i]);
        }
        if (done.phase() == Phase::passed_out) {
            EXPECT_TRUE(h["contract"].is_null());
            EXPECT_TRUE(h["trump"].is_null());
            EXPECT_EQ(h["tricks"], json::array());
            continue;
        }
        EXPECT_EQ(h["contract"]["seat"], index(done.contract()->declarer));
        EXPECT_EQ(h["contract"]["bid"], done.contract()->bid);
        EXPECT_EQ(h["contract"]["made"], done.made());
        EXPECT_EQ(h["trump"], suit_text(done.trump()));
        ASSERT_EQ(h["tricks"].size(), 13u);
        std::size_t k = 0;
        for (int tr = 0; tr < 13; ++tr) {
            const json& trick = h["tricks"][static_cast<std::size_t>(tr)];
            EXPECT_EQ(trick["winner"], index(done.trick_winner(tr)));
            for (const json& c : trick["cards"]) {
                EXPECT_EQ(c["card"].get<std::string>(), to_string(done.plays()[k]));
                EXPECT_EQ(c["seat"], index(done.played_by(static_cast<int>(k))));
                ++k;
            }
        }
        EXPECT_EQ(k, 52u);
    }
    EXPECT_GT(rounds_seen, 2u);
    // The next match starts with an empty history.
    t.commit(prepare_start(t, rng).entry(), 0);
    EXPECT_EQ(table_message_json(t, std::nullopt, 0, {}, 0)["history"], json::array());
}

TEST(Protocol, FinishedTricksCarryTheEnginesWinner) {
    TableSettings settings;
    settings.turn_seconds = 0;
    Table t("t1", settings, TableTiming{}, [](std::string_view name, std::uint64_t seed) { return bots::make_bot(name, seed); });
    for (Seat s : kSeats) t.commit(t.prepare_sit(s, "p" + std::to_string(index(s))).entry(), 0);
    Rng rng(11);
    t.commit(prepare_start(t, rng).entry(), 0);
    int tricks_checked = 0;
    while (t.state() == TableState::playing && tricks_checked < 30) {
        const Round& r = t.match().round();
        const auto legal = r.legal_actions();
        const Action a = legal[static_cast<int>(rng.below(static_cast<std::uint64_t>(legal.size())))];
        t.commit(t.prepare_act(r.to_act(), a, t.version(), rng.next()).entry(), 0);
        for (const TableEvent& e : t.take_events()) {
            const auto* won = std::get_if<event::TrickWon>(&e);
            if (!won || won->trick == 13) continue;  // after the 13th the next round is dealt at once
            const json round = round_json(SeatView(t.match().round(), Seat::s0), 1, false);
            const auto& tricks = round["finished_tricks"];
            ASSERT_EQ(tricks.size(), static_cast<std::size_t>(won->trick));
            EXPECT_EQ(tricks.back()["winner"], index(won->seat));
            EXPECT_EQ(tricks.back()["cards"].size(), 4u);
            ++tricks_checked;
        }
    }
    EXPECT_GT(tricks_checked, 0);
}

/// The "round" object of `round` as seat 0 sees it.
json round_of(const Round& round) { return round_json(SeatView(round, Seat::s0), 1, false); }

json bid_at(int bid, int seat) { return json{{"bid", bid}, {"seat", seat}}; }

TEST(Protocol, StandingBidIsTheEnginesInBothPresets) {
    // Levantine: each higher bid takes the auction; it closes after three passes.
    Round lev(rules_for(Preset::levantine), Seat::s0, deal_from_seed(5, Seat::s0));
    EXPECT_TRUE(round_of(lev)["standing_bid"].is_null());
    ASSERT_EQ(lev.apply(Seat::s1, Action::bid(8)), ErrorCode::ok);
    EXPECT_EQ(round_of(lev)["standing_bid"], bid_at(8, 1));
    ASSERT_EQ(lev.apply(Seat::s2, Action::pass()), ErrorCode::ok);
    EXPECT_EQ(round_of(lev)["standing_bid"], bid_at(8, 1));
    ASSERT_EQ(lev.apply(Seat::s3, Action::bid(8)), ErrorCode::bid_too_low);  // no equal bid in levantine
    ASSERT_EQ(lev.apply(Seat::s3, Action::bid(9)), ErrorCode::ok);
    EXPECT_EQ(round_of(lev)["standing_bid"], bid_at(9, 3));
    for (Seat s : {Seat::s0, Seat::s1, Seat::s2}) ASSERT_EQ(lev.apply(s, Action::pass()), ErrorCode::ok);
    json r = round_of(lev);
    EXPECT_EQ(r["phase"], "trump");
    EXPECT_EQ(r["standing_bid"], bid_at(9, 3));  // the winning bid: the contract's
    EXPECT_EQ(r["contract"]["seat"], 3);

    // Classic: the dealer (last to speak) may equal the standing bid and so take it.
    Round cla(rules_for(Preset::classic), Seat::s0, deal_from_seed(5, Seat::s0));
    ASSERT_EQ(cla.apply(Seat::s1, Action::bid(8)), ErrorCode::ok);
    ASSERT_EQ(cla.apply(Seat::s2, Action::pass()), ErrorCode::ok);
    ASSERT_EQ(cla.apply(Seat::s3, Action::pass()), ErrorCode::ok);
    r = round_of(cla);
    EXPECT_EQ(r["standing_bid"], bid_at(8, 1));
    EXPECT_EQ(r["lowest_bid"], 8);  // the dealer may equal it
    ASSERT_EQ(cla.apply(Seat::s0, Action::bid(8)), ErrorCode::ok);
    r = round_of(cla);
    EXPECT_EQ(r["standing_bid"], bid_at(8, 0));  // the dealer's equal bid holds it
    EXPECT_EQ(r["contract"]["seat"], 0);
    EXPECT_EQ(r["contract"]["bid"], 8);

    // Classic, a non-dealer may not equal; all passing leaves no standing bid.
    Round none(rules_for(Preset::classic), Seat::s2, deal_from_seed(6, Seat::s2));
    ASSERT_EQ(none.apply(Seat::s3, Action::bid(7)), ErrorCode::ok);
    EXPECT_NE(none.apply(Seat::s0, Action::bid(7)), ErrorCode::ok);
    EXPECT_EQ(round_of(none)["standing_bid"], bid_at(7, 3));
    Round passed(rules_for(Preset::classic), Seat::s2, deal_from_seed(6, Seat::s2));
    for (Seat s : {Seat::s3, Seat::s0, Seat::s1, Seat::s2}) ASSERT_EQ(passed.apply(s, Action::pass()), ErrorCode::ok);
    EXPECT_EQ(round_of(passed)["phase"], "passed_out");
    EXPECT_TRUE(round_of(passed)["standing_bid"].is_null());
}

TEST(Protocol, EveryTrickOfTheDealIsTheFinishedTricksThenTheCurrentTrick) {
    for (const Preset preset : {Preset::levantine, Preset::classic}) {
        Rng rng(preset == Preset::classic ? 21 : 22);
        Round round(rules_for(preset), Seat::s1, deal_from_seed(rng.next(), Seat::s1));
        // An auction with a contract: the first caller bids, everyone else passes.
        ASSERT_EQ(round.apply(round.to_act(), Action::bid(7)), ErrorCode::ok);
        while (round.phase() == Phase::auction) ASSERT_EQ(round.apply(round.to_act(), Action::pass()), ErrorCode::ok);
        EXPECT_TRUE(round_of(round)["current_trick"].is_null());  // trump not named yet
        ASSERT_EQ(round.apply(round.to_act(), round.default_action()), ErrorCode::ok);
        int states = 0;
        while (!round.over()) {
            const json r = round_of(round);
            // Every card played, in order, is the cards of finished_tricks then of current_trick.
            json cards = json::array();
            const auto& finished = r["finished_tricks"];
            ASSERT_EQ(finished.size(), static_cast<std::size_t>(round.tricks_played()));
            for (std::size_t t = 0; t < finished.size(); ++t) {
                EXPECT_EQ(finished[t]["leader"], index(round.leader_of_trick(static_cast<int>(t))));
                EXPECT_EQ(finished[t]["winner"], index(round.trick_winner(static_cast<int>(t))));
                EXPECT_EQ(finished[t]["cards"][0]["seat"], finished[t]["leader"]);
                for (const auto& c : finished[t]["cards"]) cards.push_back(c);
            }
            const auto& current = r["current_trick"];
            ASSERT_TRUE(current.is_object());
            EXPECT_EQ(current["leader"], index(round.trick_leader()));
            EXPECT_TRUE(current["winner"].is_null());
            EXPECT_EQ(current["cards"], r["trick"]);  // the older, leaderless form
            for (const auto& c : current["cards"]) cards.push_back(c);
            EXPECT_EQ(cards, r["plays"]);
            const auto legal = round.legal_actions();
            ASSERT_EQ(round.apply(round.to_act(), legal[static_cast<int>(rng.below(static_cast<std::uint64_t>(legal.size())))]),
                      ErrorCode::ok);
            ++states;
        }
        EXPECT_EQ(states, 52);
        const json r = round_of(round);
        EXPECT_TRUE(r["current_trick"].is_null());
        EXPECT_EQ(r["finished_tricks"].size(), 13u);
    }
}

TEST(Protocol, TheHiddenCardCheckCatchesATrickThatShowsAnUnplayedCard) {
    Rng rng(3);
    Round round(rules_for(Preset::levantine), Seat::s0, deal_from_seed(rng.next(), Seat::s0));
    ASSERT_EQ(round.apply(round.to_act(), Action::bid(7)), ErrorCode::ok);
    while (round.phase() == Phase::auction) ASSERT_EQ(round.apply(round.to_act(), Action::pass()), ErrorCode::ok);
    ASSERT_EQ(round.apply(round.to_act(), round.default_action()), ErrorCode::ok);
    for (int i = 0; i < 6; ++i) ASSERT_EQ(round.apply(round.to_act(), round.legal_actions()[0]), ErrorCode::ok);
    json r = round_of(round);
    EXPECT_TRUE(testing::trick_mismatches(r).empty());
    // A card still held by the seat to act, slipped into the trick in progress.
    const Card held = *round.hand(round.to_act()).begin();
    json bad = r;
    bad["current_trick"]["cards"].push_back({{"seat", index(round.to_act())}, {"card", to_string(held)}});
    EXPECT_FALSE(testing::trick_mismatches(bad).empty());
    bad = r;
    bad["finished_tricks"][0]["cards"][1]["card"] = to_string(held);
    EXPECT_FALSE(testing::trick_mismatches(bad).empty());
    bad = r;
    bad["current_trick"]["winner"] = 1;
    EXPECT_FALSE(testing::trick_mismatches(bad).empty());
}

TEST(Protocol, JournalEntriesReadBackAsWritten) {
    const std::vector<JournalEntry> entries{
        journal::Sit{Seat::s2, "Layla"},
        journal::Leave{Seat::s1},
        journal::AddBot{Seat::s3, "heuristic", 42},
        journal::RemoveBot{Seat::s0},
        journal::Start{7, 2, 58, 99},
        journal::Act{Seat::s1, Action::bid(8), std::nullopt, false},
        journal::Act{Seat::s2, Action::play(*parse_card("QS")), 123, true},
    };
    for (const auto& e : entries) {
        const json j = journal_json(e);
        const auto back = parse_journal_entry(j);
        ASSERT_TRUE(back) << j.dump();
        EXPECT_EQ(journal_json(*back), j);
        EXPECT_EQ(j["op"], std::string(journal_op(e)));
    }
    EXPECT_EQ(journal_json(entries[5]).dump(), R"({"a":"8","op":"act","seat":1})");
    EXPECT_EQ(journal_json(entries[6]).dump(), R"({"a":"QS","deal":123,"op":"act","seat":2,"timeout":true})");
    EXPECT_FALSE(parse_journal_entry(json{{"op", "fly"}}));
    EXPECT_FALSE(parse_journal_entry(json{{"op", "act"}, {"seat", 1}, {"a", "t?"}}));
    EXPECT_FALSE(parse_journal_entry(json{{"op", "sit"}, {"seat", 1}, {"name", 3}}));
}

TEST(Protocol, JournalTextIsTheDumpOfTheJournalJsonForEveryKindOfEntry) {
    // Every kind, every optional key present and absent, names that need escapes, the largest
    // seeds: the fast writer's bytes are the reference tree's dump(), and read back the same.
    const std::uint64_t big = std::numeric_limits<std::uint64_t>::max();
    std::vector<JournalEntry> entries{
        journal::Sit{Seat::s0, "Layla"},
        journal::Sit{Seat::s3, "«يلا» \"quoted\" \\ back\n\t\r\b\f\x01\x1f"},
        journal::Leave{Seat::s1},
        journal::AddBot{Seat::s3, "heuristic", 42},
        journal::AddBot{Seat::s2, "pimc", big},
        journal::RemoveBot{Seat::s0},
        journal::Start{7, std::nullopt, std::nullopt, std::nullopt},
        journal::Start{big, 2, 58, 99},
    };
    for (std::optional<int> match : {std::optional<int>(), std::optional<int>(1)})
        for (std::optional<std::uint64_t> version : {std::optional<std::uint64_t>(), std::optional<std::uint64_t>(0)})
            for (std::optional<std::uint64_t> deal : {std::optional<std::uint64_t>(), std::optional<std::uint64_t>(big)})
                entries.push_back(journal::Start{3, match, version, deal});
    for (const Action a : {Action::pass(), Action::bid(7), Action::bid(13), Action::name_trump(Suit::hearts), Action::play(*parse_card("10D")),
                           Action::play(*parse_card("AS"))})
        for (std::optional<std::uint64_t> deal : {std::optional<std::uint64_t>(), std::optional<std::uint64_t>(123)})
            for (bool timeout : {false, true}) entries.push_back(journal::Act{Seat::s2, a, deal, timeout});
    for (const auto& e : entries) {
        const std::string text = journal_text(e);
        EXPECT_EQ(text, journal_json(e).dump());
        const auto back = parse_journal_entry(json::parse(text));
        ASSERT_TRUE(back) << text;
        EXPECT_EQ(journal_text(*back), text);
    }
    EXPECT_EQ(journal_text(journal::Start{7, 2, 58, 99}), R"({"deal":99,"match":2,"op":"start","seed":7,"version":58})");
    EXPECT_EQ(journal_text(journal::AddBot{Seat::s3, "heuristic", 42}), R"({"bot":"heuristic","op":"bot","seat":3,"seed":42})");
}

TEST(Protocol, AddBotRefusesTheCheaterTestBot) {
    // The server's tables make bots by name through the registry (cmd_serve.cpp's factory is
    // bots::make_bot plus the operator's engines): the `cheater` test bot, which sees every
    // hand, is not made from a name, so add_bot of it is refused like an unknown bot.
    Table t("t1", TableSettings{}, TableTiming{}, [](std::string_view name, std::uint64_t seed) { return bots::make_bot(name, seed); });
    const Change c = t.prepare_add_bot(Seat::s1, "cheater", 1);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(to_string(*c.error), "unknown_bot");
    EXPECT_TRUE(t.prepare_add_bot(Seat::s1, "heuristic", 1).ok());
}

}  // namespace
TEST(ClusterMessage, FramesTravelAfterTheFieldsUnescapedAndComeBackWhole) {
    // A frame with newlines, quotes, backslashes and non-ASCII text, as a client might send it.
    const std::string frame = "{\"type\":\"chat\",\"text\":\"a\\\"b\\\\c\\nd \u0645\u0631\u062d\u0628\u0627\"}\n\nend\"";
    const nlohmann::json msg{{"k", "send"}, {"c", std::uint64_t{7}}, {"t", frame}, {"to", "n2/x"}, {"from", "n1/y"}};
    const std::string text = encode_node_message(msg);
    EXPECT_EQ(text.substr(text.find('\n') + 1), frame);  // the frame as it is: not escaped
    EXPECT_EQ(decode_node_message(text), msg);
    // Without "t" (or with a "t" that is no string) it is plain JSON.
    const nlohmann::json open{{"k", "open"}, {"c", std::uint64_t{1}}, {"a", "10.0.0.1"}};
    EXPECT_EQ(encode_node_message(open), open.dump());
    EXPECT_EQ(decode_node_message(open.dump()), open);
    const nlohmann::json odd{{"k", "x"}, {"t", 5}};
    EXPECT_EQ(decode_node_message(encode_node_message(odd)), odd);
    EXPECT_EQ(decode_node_message(encode_node_message({{"t", ""}})), nlohmann::json({{"t", ""}}));
    // Anything else is refused, never half-read.
    for (const char* bad : {"", "\n", "[1,2]\nx", "{\"k\":\n}", "not json", "{\"k\":1} trailing\nx"})
        EXPECT_TRUE(decode_node_message(bad).is_discarded()) << bad;
}

}  // namespace tarneeb::server
