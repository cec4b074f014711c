#include "tarneeb/server/protocol.hpp"

#include <algorithm>
#include <array>

namespace tarneeb::server {

std::string_view to_string(ProtocolError e) {
    static constexpr std::array<std::string_view, 24> kNames{
        "bad_message", "unknown_type", "not_signed_in", "bad_name", "name_taken", "unknown_token",
        "no_such_table", "bad_code", "seat_taken", "bad_seat", "not_seated", "not_at_table",
        "spectator", "table_playing", "not_enough_players", "unknown_bot", "bad_settings",
        "too_many_tables", "stale", "bad_action", "rate_limited", "storage_unavailable",
        "too_many_waiting_tables", "too_many_connections"};
    const auto i = static_cast<std::size_t>(e);
    return i < kNames.size() ? kNames[i] : "unknown";
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

std::string action_text(Action a) {
    switch (a.kind) {
        case ActionKind::call: return a.is_pass() ? "pass" : std::to_string(a.bid_value());
        case ActionKind::trump: return std::string{'t', suit_letter(a.suit())};
        case ActionKind::play: return to_string(a.card());
    }
    return "?";
}

std::optional<Action> parse_action_text(std::string_view text) {
    if (text == "pass") return Action::pass();
    if (text.size() == 2 && text[0] == 't') {
        const auto s = parse_suit(text.substr(1));
        if (s) return Action::name_trump(*s);
        return std::nullopt;
    }
    if (!text.empty() && text.size() <= 2 && std::all_of(text.begin(), text.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
        int v = 0;
        for (char ch : text) v = v * 10 + (ch - '0');
        return Action::bid(v);
    }
    const auto c = parse_card(text);
    if (c) return Action::play(*c);
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
}  // namespace

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
    auto calls = nlohmann::json::array();
    const auto cs = v.calls();
    for (int i = 0; i < static_cast<int>(cs.size()); ++i) {
        const int value = cs[static_cast<std::size_t>(i)];
        calls.push_back({{"seat", index(v.caller(i))},
                         {"call", value == 0 ? nlohmann::json("pass") : nlohmann::json(value)}});
    }
    r["calls"] = std::move(calls);
    r["contract"] = v.has_contract() ? nlohmann::json{{"seat", index(v.contract()->declarer)}, {"bid", v.contract()->bid}}
                                     : nlohmann::json(nullptr);
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
    r["tricks"] = {v.tricks(Team::t0), v.tricks(Team::t1)};
    r["cards_left"] = {v.cards_left(Seat::s0), v.cards_left(Seat::s1), v.cards_left(Seat::s2), v.cards_left(Seat::s3)};
    r["points"] = {v.points(Team::t0), v.points(Team::t1)};
    return r;
}

}  // namespace tarneeb::server
