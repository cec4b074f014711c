#include "tarneeb/room/protocol.hpp"

#include <algorithm>
#include <array>
#include <variant>

#include "tarneeb/support/overloaded.hpp"
#include "tarneeb/records/record.hpp"
#include "message_rules.hpp"

namespace tarneeb::server {

nlohmann::json settings_json(const TableSettings& s) {
    nlohmann::json j{{"preset", std::string(to_string(s.preset))}, {"target", s.target}, {"turn_seconds", s.turn_seconds},
                     {"private", s.is_private}, {"code_hash", s.code_hash}};
    if (s.bracket_tiebreak) j["bracket"] = true;  // a tournament bracket's table (stored settings only)
    if (s.casual) j["casual"] = true;
    if (s.quick) j["quick"] = s.quick_rating;  // a quick-play table (stored settings only)
    return j;
}

std::optional<TableSettings> parse_settings(const nlohmann::json& j) {
    if (!j.is_object()) return std::nullopt;
    TableSettings s;
    if (auto it = j.find("preset"); it != j.end() && !it->is_null()) {
        if (!it->is_string()) return std::nullopt;
        const auto p = parse_preset(it->get_ref<const std::string&>());
        if (!p) return std::nullopt;
        s.preset = *p;
    }
    auto get_int = [&](const char* key, int& out, int lo, int hi) {
        auto it = j.find(key);
        if (it == j.end() || it->is_null()) return true;
        if (!it->is_number_integer()) return false;
        const auto v = it->get<std::int64_t>();
        if (v < lo || v > hi) return false;
        out = static_cast<int>(v);
        return true;
    };
    if (!get_int("target", s.target, 1, 500) || !get_int("turn_seconds", s.turn_seconds, 0, 600)) return std::nullopt;
    if (auto it = j.find("private"); it != j.end() && !it->is_null()) {
        if (!it->is_boolean()) return std::nullopt;
        s.is_private = it->get<bool>();
    }
    if (auto it = j.find("code_hash"); it != j.end() && it->is_string()) s.code_hash = it->get<std::string>();
    if (auto it = j.find("code"); it != j.end() && it->is_string()) s.code = it->get<std::string>();  // older databases
    if (auto it = j.find("bracket"); it != j.end() && it->is_boolean()) s.bracket_tiebreak = it->get<bool>();
    if (auto it = j.find("casual"); it != j.end() && it->is_boolean()) s.casual = it->get<bool>();  // stored
    if (auto it = j.find("quick"); it != j.end() && it->is_number_integer()) {  // stored
        s.quick = true;
        s.quick_rating = static_cast<int>(std::clamp<std::int64_t>(it->get<std::int64_t>(), 0, 10000));
    }
    if (auto it = j.find("rated"); it != j.end() && !it->is_null()) {  // `create`: false makes it casual
        if (!it->is_boolean()) return std::nullopt;
        s.casual = !it->get<bool>();
    }
    return s;
}


std::string_view to_string(ProtocolError e) {
    static constexpr std::array<std::string_view, 25> kNames{
        "bad_message", "unknown_type", "not_signed_in", "bad_name", "name_taken", "unknown_token",
        "no_such_table", "bad_code", "seat_taken", "bad_seat", "not_seated", "not_at_table",
        "spectator", "table_playing", "not_enough_players", "unknown_bot", "bad_settings",
        "too_many_tables", "stale", "bad_action", "rate_limited", "storage_unavailable",
        "too_many_waiting_tables", "too_many_connections", "engine_budget"};
    const auto i = static_cast<std::size_t>(e);
    return i < kNames.size() ? kNames[i] : "unknown";
}

std::string_view to_string(const Refusal& r) {
    return std::visit([](auto code) { return to_string(code); }, r);
}

std::string suit_text(Suit s) { return std::string(1, suit_letter(s)); }

nlohmann::json action_json(Action a) {
    switch (a.kind) {
        case ActionKind::call:
            return a.is_pass() ? nlohmann::json{{"call", "pass"}} : nlohmann::json{{"call", a.bid_value()}};
        case ActionKind::trump: return {{"trump", suit_text(a.suit())}};
        case ActionKind::play: return {{"card", to_string(a.card())}};
    }
    return nullptr;
}

std::optional<Action> parse_action(const nlohmann::json& j) {
    if (!j.is_object() || j.size() != 1) return std::nullopt;
    if (auto it = j.find("call"); it != j.end()) {
        if (it->is_string() && it->get_ref<const std::string&>() == "pass") return Action::pass();
        if (it->is_number_integer()) {
            const auto v = it->get<std::int64_t>();
            if (v < 1 || v > 255) return std::nullopt;
            return Action::bid(static_cast<int>(v));
        }
        return std::nullopt;
    }
    if (auto it = j.find("trump"); it != j.end()) {
        if (!it->is_string()) return std::nullopt;
        const auto s = parse_suit(it->get_ref<const std::string&>());
        if (!s) return std::nullopt;
        return Action::name_trump(*s);
    }
    if (auto it = j.find("card"); it != j.end()) {
        if (!it->is_string()) return std::nullopt;
        const auto c = parse_card(it->get_ref<const std::string&>());
        if (!c) return std::nullopt;
        return Action::play(*c);
    }
    return std::nullopt;
}

std::string_view to_string(Phase p) {
    switch (p) {
        case Phase::auction: return "auction";
        case Phase::trump: return "trump";
        case Phase::play: return "play";
        case Phase::scored: return "scored";
        case Phase::passed_out: return "passed_out";
    }
    return "?";
}

namespace {
nlohmann::json seat_card(Seat s, Card c) { return {{"seat", index(s)}, {"card", to_string(c)}}; }

/// The auction so far: [{"seat", "call": "pass" | 7..13}…] in order.
nlohmann::json calls_json(const SeatView& v) {
    auto calls = nlohmann::json::array();
    const auto cs = v.calls();
    for (int i = 0; i < static_cast<int>(cs.size()); ++i) {
        const int value = cs[static_cast<std::size_t>(i)];
        calls.push_back({{"seat", index(v.caller(i))},
                         {"call", value == 0 ? nlohmann::json("pass") : nlohmann::json(value)}});
    }
    return calls;
}

/// The number of rounds of `m` that are over (every round but one still under way).
std::size_t finished_rounds(const Match& m) {
    return m.rounds().size() - (m.has_round() && !m.round().over() ? 1 : 0);
}
}  // namespace

namespace {
/// One finished round of history_json: round `i` (0-based) of `m`.
nlohmann::json history_round_json(const Match& m, std::size_t i) {
    // A view of the finished round (seat 0's, whose hand is never written: empty anyway once
    // the round is over). Only what was public is read: calls, contract, played cards, scores.
    const SeatView v(m.rounds()[i], Seat::s0);
    auto tricks = nlohmann::json::array();
    for (int t = 0; t < v.tricks_played(); ++t) tricks.push_back(records::trick_json(v.trick(t), v.trick_winner(t)));
    const auto contract = v.contract();
    const auto totals = m.totals_after(static_cast<int>(i));
    return {{"number", i + 1},
            {"dealer", index(v.dealer())},
            {"calls", calls_json(v)},
            {"contract", contract ? nlohmann::json{{"seat", index(contract->declarer)}, {"bid", contract->bid}, {"made", v.made()}}
                                  : nlohmann::json(nullptr)},
            {"trump", v.trump_named() ? nlohmann::json(suit_text(v.trump())) : nlohmann::json(nullptr)},
            {"tricks", std::move(tricks)},
            {"taken", {v.tricks(Team::t0), v.tricks(Team::t1)}},
            {"points", {v.points(Team::t0), v.points(Team::t1)}},
            {"totals", {totals[0], totals[1]}},
            {"passed_out", v.phase() == Phase::passed_out}};
}
}  // namespace

nlohmann::json history_json(const Match& m) {
    auto history = nlohmann::json::array();
    const std::size_t n = finished_rounds(m);
    for (std::size_t i = 0; i < n; ++i) history.push_back(history_round_json(m, i));
    return history;
}

const std::string& HistoryCache::text(const Table& table) {
    const Match& m = table.match();
    const std::size_t n = table.match_number() == 0 ? 0 : finished_rounds(m);
    if (table.match_number() != match_ || n < rounds_ || text_.empty()) {
        match_ = table.match_number();
        rounds_ = 0;
        text_ = "[]";
    }
    // A finished round never changes: only the rounds finished since are written, each as
    // history_json would write it (history_json(m).dump() is the same text).
    for (; rounds_ < n; ++rounds_) {
        text_.pop_back();  // ']'
        if (rounds_ > 0) text_ += ',';
        text_ += history_round_json(m, rounds_).dump();
        text_ += ']';
    }
    return text_;
}

nlohmann::json round_json(const SeatView& v, int number, bool with_hand) {
    nlohmann::json r;
    r["number"] = number;
    r["dealer"] = index(v.dealer());
    r["phase"] = to_string(v.phase());
    const bool over = v.phase() == Phase::scored || v.phase() == Phase::passed_out;
    r["to_act"] = over ? nlohmann::json(nullptr) : nlohmann::json(index(v.to_act()));
    if (with_hand) {
        auto hand = nlohmann::json::array();
        for (Card c : v.hand()) hand.push_back(to_string(c));
        r["hand"] = std::move(hand);
    }
    r["calls"] = calls_json(v);
    // "standing_bid": the highest bid so far and its bidder, as the engine keeps them
    // (Round::high_bid/high_bidder: in the classic preset the dealer's equal bid takes it,
    // docs/rules.md "Preset classic"): the bid standing during the auction, the winning bid
    // (the contract's) after it; null while no one has bid. The auction is public.
    r["standing_bid"] = v.high_bid() > 0 ? nlohmann::json{{"bid", v.high_bid()}, {"seat", index(v.high_bidder())}}
                                         : nlohmann::json(nullptr);
    // "defenders_need": the tricks that set the contract (the engine's Contract::tricks_to_set).
    const auto contract = v.contract();
    r["contract"] = contract ? nlohmann::json{{"seat", index(contract->declarer)}, {"bid", contract->bid},
                                              {"defenders_need", contract->tricks_to_set()}}
                                     : nlohmann::json(nullptr);
    // "lowest_bid": the lowest bid the seat to act may make now (the engine's; the auction is
    // public), null outside the auction or when no bid is left.
    const auto lowest = v.lowest_bid();
    r["lowest_bid"] = lowest ? nlohmann::json(*lowest) : nlohmann::json(nullptr);
    r["trump"] = v.trump_named() ? nlohmann::json(suit_text(v.trump())) : nlohmann::json(nullptr);
    auto plays = nlohmann::json::array();
    const auto ps = v.plays();
    for (int i = 0; i < static_cast<int>(ps.size()); ++i) plays.push_back(seat_card(v.played_by(i), ps[static_cast<std::size_t>(i)]));
    r["plays"] = std::move(plays);
    auto trick = nlohmann::json::array();
    const auto ct = v.current_trick();
    const int first = static_cast<int>(ps.size() - ct.size());
    for (int i = 0; i < static_cast<int>(ct.size()); ++i) trick.push_back(seat_card(v.played_by(first + i), ct[static_cast<std::size_t>(i)]));
    r["trick"] = std::move(trick);
    // Every finished trick: its leader, its cards in order and its winner (the engine's
    // Round::trick and Round::trick_winner). Played cards are public.
    auto finished = nlohmann::json::array();
    for (int t = 0; t < v.tricks_played(); ++t) finished.push_back(records::trick_json(v.trick(t), v.trick_winner(t)));
    r["finished_tricks"] = std::move(finished);
    // "current_trick": the trick in progress in the same shape, winner null (its leader is known
    // before its first card); null outside the play phase. finished_tricks + current_trick are
    // every trick of the deal so far.
    r["current_trick"] = v.phase() == Phase::play ? records::trick_json(v.trick(v.tricks_played()), std::nullopt)
                                                : nlohmann::json(nullptr);
    r["tricks"] = {v.tricks(Team::t0), v.tricks(Team::t1)};
    r["cards_left"] = {v.cards_left(Seat::s0), v.cards_left(Seat::s1), v.cards_left(Seat::s2), v.cards_left(Seat::s3)};
    r["points"] = {v.points(Team::t0), v.points(Team::t1)};
    return r;
}

namespace {
nlohmann::json pair_json(const ByTeam<int>& a) { return {a[Team::t0], a[Team::t1]}; }
}  // namespace

nlohmann::json event_json(const TableEvent& event) {
    using nlohmann::json;
    return std::visit(
        Overloaded{
            [](const event::Seated& e) {
                json j{{"event", "seated"}, {"seat", index(e.seat)}, {"name", e.name}, {"bot", e.bot}};
                if (e.bot) j["kind"] = e.kind;
                return j;
            },
            [](const event::Left& e) { return json{{"event", "left"}, {"seat", index(e.seat)}, {"name", e.name}}; },
            [](const event::MatchStarted& e) { return json{{"event", "match_started"}, {"match", e.match}}; },
            [](const event::Deal& e) { return json{{"event", "deal"}, {"number", e.number}, {"dealer", index(e.dealer)}}; },
            [](const event::Acted& e) {
                const Action a = e.action;
                switch (a.kind) {
                    case ActionKind::call:
                        return json{{"event", "call"}, {"seat", index(e.seat)},
                                    {"call", a.is_pass() ? json("pass") : json(a.bid_value())}, {"timeout", e.timeout}};
                    case ActionKind::trump:
                        return json{{"event", "trump"}, {"seat", index(e.seat)}, {"trump", suit_text(a.suit())}, {"timeout", e.timeout}};
                    case ActionKind::play: break;
                }
                return json{{"event", "card"}, {"seat", index(e.seat)}, {"card", to_string(a.card())}, {"timeout", e.timeout}};
            },
            [](const event::TrickWon& e) {
                return json{{"event", "trick_won"}, {"seat", index(e.seat)}, {"trick", e.trick}, {"tricks", pair_json(e.tricks)}};
            },
            [](const event::RoundScored& e) {
                return json{{"event", "round_scored"}, {"contract", {{"seat", index(e.declarer)}, {"bid", e.bid}}},
                            {"made", e.made}, {"tricks", pair_json(e.tricks)}, {"points", pair_json(e.points)},
                            {"scores", pair_json(e.scores)}};
            },
            [](const event::PassedOut& e) { return json{{"event", "passed_out"}, {"number", e.number}}; },
            [](const event::MatchOver& e) {
                return json{{"event", "match_over"}, {"status", std::string(to_string(e.status))},
                            {"winner", e.winner ? json(index(*e.winner)) : json(nullptr)},
                            {"scores", pair_json(e.scores)}, {"record", e.record}};
            },
            [](const event::Disconnected& e) { return json{{"event", "disconnected"}, {"seat", index(e.seat)}}; },
            [](const event::BotTookOver& e) { return json{{"event", "bot_took_over"}, {"seat", index(e.seat)}}; },
            [](const event::Reclaimed& e) { return json{{"event", "reclaimed"}, {"seat", index(e.seat)}}; },
        },
        event);
}

nlohmann::json events_json(const std::vector<TableEvent>& events) {
    auto j = nlohmann::json::array();
    for (const auto& e : events) j.push_back(event_json(e));
    return j;
}

nlohmann::json seat_json(const SeatInfo& h) {
    if (h.kind == SeatInfo::Kind::empty) return nullptr;
    const bool bot = h.kind == SeatInfo::Kind::bot;
    nlohmann::json j{{"name", h.name}, {"bot", bot}, {"connected", bot || h.connected}};
    if (bot) j["kind"] = h.bot_kind;
    if (h.standin) j["standin"] = true;
    return j;
}

nlohmann::json summary_json(const Table& t, int spectators) {
    auto seats = nlohmann::json::array();
    for (Seat s : kSeats) seats.push_back(seat_json(t.seat_info(s)));
    const TableSettings& st = t.settings();
    nlohmann::json j{{"table", t.id()}, {"preset", std::string(to_string(st.preset))}, {"target", st.target},
            {"turn_seconds", st.turn_seconds}, {"private", st.is_private}, {"rated", t.rated()},
            {"state", std::string(to_string(t.state()))}, {"seats", std::move(seats)}, {"spectators", spectators},
            {"match", t.match_number()}};
    if (st.quick) {  // a quick-play table: its pool's rating, and when its empty seats get bots
        j["quick"] = {{"rating", st.quick_rating},
                      {"fill_at", t.fill_at() ? nlohmann::json(*t.fill_at()) : nlohmann::json(nullptr)}};
    }
    return j;
}

namespace {

/// The keys of a table message that differ between recipients, but the hand: "legal",
/// "timeout_action" (with a turn timer), "default_action" (the rules' default: what the
/// timer would play; docs/rules.md "Turn timer") and "you". Only from `seat`'s SeatView.
struct SeatKeys {
    nlohmann::json legal = nlohmann::json::array();
    nlohmann::json timeout_action = nullptr;
    nlohmann::json default_action = nullptr;
    nlohmann::json you = nullptr;
};

SeatKeys seat_keys(const Table& t, std::optional<Seat> seat) {
    SeatKeys k;
    if (!seat) return k;
    k.you = index(*seat);
    if (t.state() != TableState::playing || !has_round(t)) return k;
    const SeatView view = SeatView::of(t.match(), *seat);
    if (!view.my_turn()) return k;
    for (Action a : view.legal_actions()) k.legal.push_back(action_json(a));
    k.default_action = action_json(view.default_action());
    if (t.deadline()) k.timeout_action = k.default_action;
    return k;
}

nlohmann::json hand_json(const Table& t, Seat seat) {
    auto hand = nlohmann::json::array();
    for (Card c : SeatView::of(t.match(), seat).hand()) hand.push_back(to_string(c));
    return hand;
}

/// Everything every recipient shares: the spectator's message without the per-seat keys.
/// `history`: false leaves "history" null, for a caller that writes it from a HistoryCache.
nlohmann::json shared_json(const Table& t, int spectators, const std::vector<TableEvent>& events, Millis now,
                           bool history = true) {
    nlohmann::json j = summary_json(t, spectators);
    j["type"] = "table";
    j["version"] = t.version();
    const auto totals = t.match().totals();
    j["scores"] = {totals[0], totals[1]};
    j["deadline_ms"] = t.deadline() ? nlohmann::json(*t.deadline()) : nlohmann::json(nullptr);
    // "remaining_ms": the time left on the turn, deadline − now on the server's clock (0 once past).
    j["remaining_ms"] = t.deadline() ? nlohmann::json(std::max<Millis>(0, *t.deadline() - now)) : nlohmann::json(nullptr);
    // "summary_ms": while the round summary holds the new deal's first turn, the time until the
    // turn clock starts (absent otherwise; TableTiming::summary_ms).
    if (const auto until = t.summary_until(); until && *until > now) j["summary_ms"] = *until - now;
    // "fill_ms": a quick-play table waiting for people, the time until its empty seats get bots.
    if (const auto fill = t.fill_at()) j["fill_ms"] = std::max<Millis>(0, *fill - now);
    const Rules rules = t.settings().rules();
    j["bid_range"] = {rules.min_bid, rules.max_bid};
    j["result"] = nullptr;
    if (t.state() == TableState::finished && t.match().over()) {
        const auto w = t.match().winner();
        j["result"] = {{"status", std::string(to_string(t.match().status()))},
                       {"winner", w ? nlohmann::json(index(*w)) : nlohmann::json(nullptr)}};
    }
    // A spectator's view: its hand is never written (round_json with with_hand = false).
    j["round"] = has_round(t) ? round_json(SeatView::of(t.match(), Seat::s0), static_cast<int>(t.match().rounds().size()), false)
                              : nlohmann::json(nullptr);
    j["events"] = events_json(events);
    // "history": the finished rounds of the match (its played cards are public), [] before one.
    j["history"] = !history ? nlohmann::json(nullptr) : t.match_number() == 0 ? nlohmann::json::array() : history_json(t.match());
    j["now_ms"] = now;
    return j;
}

}  // namespace


nlohmann::json table_message_json(const Table& t, std::optional<Seat> seat, int spectators,
                                  const std::vector<TableEvent>& events, Millis now, bool creator) {
    nlohmann::json j = shared_json(t, spectators, events, now);
    SeatKeys k = seat_keys(t, seat);
    if (const auto code = creator_code(t, creator)) j["join_code"] = *code;
    j["legal"] = std::move(k.legal);
    j["timeout_action"] = std::move(k.timeout_action);
    j["default_action"] = std::move(k.default_action);
    j["you"] = std::move(k.you);
    if (seat && j["round"].is_object()) j["round"]["hand"] = hand_json(t, *seat);
    return j;
}

nlohmann::json ok_json(std::optional<std::uint64_t> version) {
    nlohmann::json j{{"type", "ok"}};
    if (version) j["version"] = *version;
    return j;
}

nlohmann::json pong_json() { return {{"type", "pong"}}; }

nlohmann::json hint_json(Action action, std::uint64_t version) {
    return {{"type", "hint"}, {"version", version}, {"action", action_json(action)}};
}

nlohmann::json welcome_json(const std::string& name, const std::string& token, const std::string& table,
                            std::optional<Seat> seat) {
    return {{"type", "welcome"}, {"name", name}, {"token", token}, {"protocol", 1},
            {"table", table.empty() ? nlohmann::json(nullptr) : nlohmann::json(table)},
            {"seat", seat ? nlohmann::json(index(*seat)) : nlohmann::json(nullptr)}};
}

nlohmann::json created_json(const std::string& table, const std::optional<std::string>& code) {
    return {{"type", "created"}, {"table", table}, {"code", code ? nlohmann::json(*code) : nlohmann::json(nullptr)}};
}

nlohmann::json tables_json(nlohmann::json summaries, nlohmann::json next) {
    return {{"type", "tables"}, {"tables", std::move(summaries)}, {"next", std::move(next)}};
}

nlohmann::json request_id(const nlohmann::json& msg) {
    nlohmann::json id = msg.value("id", nlohmann::json(nullptr));
    if (!(id.is_null() || id.is_number() || (id.is_string() && id.get_ref<const std::string&>().size() <= 64))) id = nullptr;
    return id;
}

nlohmann::json error_json(std::string_view code, std::string message) {
    return {{"type", "error"}, {"code", code}, {"message", message.empty() ? std::string(code) : message}};
}

}  // namespace tarneeb::server
