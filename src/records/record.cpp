#include "tarneeb/records/record.hpp"

namespace tarneeb::records {
namespace {

using nlohmann::json;

/// Thrown inside replay() only, to stop at the first error; never escapes it.
struct Stop {
    RecordError error;
};

[[noreturn]] void stop(ErrorCode code, std::optional<int> deal, std::string_view phase, std::optional<int> index) {
    throw Stop{RecordError{code, deal, phase, index}};
}

std::optional<Preset> preset_of(const Rules& r) {
    for (Preset p : {Preset::levantine, Preset::classic}) {
        const Rules base = rules_for(p);
        if (r.auction == base.auction && r.scoring == base.scoring && r.pass_out_dealer == base.pass_out_dealer &&
            r.min_bid == base.min_bid && r.max_bid == base.max_bid)
            return p;
    }
    return std::nullopt;
}

/// One seat's hand: a string of white-space separated cards (core's parse_hand) or a list of
/// card strings; 13 different cards.
CardSet read_hand(const json& j, int deal, int seat) {
    ParsedHand hand;
    if (j.is_string()) {
        hand = parse_hand(j.get<std::string>());
    } else if (j.is_array()) {
        for (const json& c : j) {
            if (!c.is_string()) stop(ErrorCode::bad_card, deal, "hands", seat);
            const auto card = parse_card(c.get<std::string>());
            if (!card) stop(ErrorCode::bad_card, deal, "hands", seat);
            ++hand.count;
            hand.cards |= *card;
        }
    } else {
        stop(ErrorCode::bad_hands, deal, "hands", seat);
    }
    if (hand.error != ErrorCode::ok) stop(hand.error, deal, "hands", seat);
    if (hand.count != 13 || hand.cards.size() != 13) stop(ErrorCode::bad_hands, deal, "hands", seat);
    return hand.cards;
}

Hands read_hands(const json& deal_obj, int deal) {
    auto it = deal_obj.find("hands");
    if (it == deal_obj.end() || !it->is_array() || it->size() != 4) stop(ErrorCode::bad_hands, deal, "hands", std::nullopt);
    Hands hands;
    CardSet all;
    for (int s = 0; s < 4; ++s) {
        hands[static_cast<std::size_t>(s)] = read_hand((*it)[static_cast<std::size_t>(s)], deal, s);
        all |= hands[static_cast<std::size_t>(s)];
    }
    if (all != CardSet::deck()) stop(ErrorCode::bad_hands, deal, "hands", std::nullopt);
    return hands;
}

/// A list field: absent = empty; null or not a list = bad_format.
const json& read_list(const json& deal_obj, const char* key, int deal) {
    static const json empty = json::array();
    auto it = deal_obj.find(key);
    if (it == deal_obj.end()) return empty;
    if (!it->is_array()) stop(ErrorCode::bad_format, deal, key, std::nullopt);
    return *it;
}

/// A call: integers 7..13, the strings "7".."13", "pass" or "timeout" (record-format.md).
std::optional<Action> read_call(const json& j, const Rules& rules) {
    if (j.is_number_integer()) {
        const auto v = j.get<long long>();
        if (v >= rules.min_bid && v <= rules.max_bid) return Action::bid(static_cast<int>(v));
        return std::nullopt;
    }
    if (!j.is_string()) return std::nullopt;
    const auto& s = j.get_ref<const std::string&>();
    if (s == "pass" || s == "timeout") return Action::pass();
    for (int b = rules.min_bid; b <= rules.max_bid; ++b)
        if (s == std::to_string(b)) return Action::bid(b);
    return std::nullopt;
}

void play_deal(Match& match, const json& deal_obj, int d) {
    const Hands hands = read_hands(deal_obj, d);
    match.start_round(hands);
    const Round& round = match.round();

    const json& auction = read_list(deal_obj, "auction", d);
    for (std::size_t k = 0; k < auction.size(); ++k) {
        const int at = static_cast<int>(k);
        if (round.phase() != Phase::auction) stop(ErrorCode::auction_closed, d, "auction", at);
        auto call = read_call(auction[k], match.rules());
        if (!call) stop(ErrorCode::bad_bid, d, "auction", at);
        if (const ErrorCode e = match.apply(*call); e != ErrorCode::ok) stop(e, d, "auction", at);
    }

    auto trump_it = deal_obj.find("trump");
    const bool trump_given = trump_it != deal_obj.end() && !trump_it->is_null();
    if (trump_given) {
        if (round.phase() == Phase::passed_out) stop(ErrorCode::no_contract, d, "trump", 0);
        if (round.phase() == Phase::auction) stop(ErrorCode::auction_open, d, "trump", 0);
        std::optional<Action> trump;
        if (trump_it->is_string()) {
            const auto& s = trump_it->get_ref<const std::string&>();
            if (s == "timeout") {
                trump = round.default_action();
            } else if (s.size() == 1) {
                if (auto suit = parse_suit(s)) trump = Action::name_trump(*suit);
            }
        }
        if (!trump) stop(ErrorCode::bad_trump, d, "trump", 0);
        if (const ErrorCode e = match.apply(*trump); e != ErrorCode::ok) stop(e, d, "trump", 0);
    }

    const json& play = read_list(deal_obj, "play", d);
    if (!play.empty()) {
        if (round.phase() == Phase::passed_out) stop(ErrorCode::no_contract, d, "play", 0);
        if (round.phase() == Phase::auction) stop(ErrorCode::auction_open, d, "play", 0);
        if (round.phase() == Phase::trump) stop(ErrorCode::trump_missing, d, "play", 0);
    }
    for (std::size_t k = 0; k < play.size(); ++k) {
        const int at = static_cast<int>(k);
        if (k >= 52) stop(ErrorCode::deal_over, d, "play", at);
        std::optional<Action> action;
        if (play[k].is_string()) {
            const auto& s = play[k].get_ref<const std::string&>();
            if (s == "timeout") {
                action = round.default_action();
            } else if (auto card = parse_card(s)) {
                action = Action::play(*card);
            }
        }
        if (!action) stop(ErrorCode::bad_card, d, "play", at);
        if (const ErrorCode e = match.apply(*action); e != ErrorCode::ok) stop(e, d, "play", at);
    }
}

/// The error for an unfinished deal that is followed by another (record-format.md).
RecordError incomplete(const Round& r, const json& deal_obj, int d) {
    switch (r.phase()) {
        case Phase::auction:
            return {ErrorCode::deal_incomplete, d, "auction", static_cast<int>(r.calls().size())};
        case Phase::trump: return {ErrorCode::deal_incomplete, d, "trump", 0};
        default: {
            auto it = deal_obj.find("play");
            const int n = (it != deal_obj.end() && it->is_array()) ? static_cast<int>(it->size()) : 0;
            return {ErrorCode::deal_incomplete, d, "play", n};
        }
    }
}

void read_record(const json& top, Replay& out) {
    if (!top.is_object()) stop(ErrorCode::bad_format, std::nullopt, "record", std::nullopt);
    auto field = [&](const char* key) { auto it = top.find(key); return it == top.end() ? nullptr : &*it; };

    const json* format = field("format");
    if (!format || !format->is_string() || format->get_ref<const std::string&>() != kRecordFormat)
        stop(ErrorCode::bad_format, std::nullopt, "record", std::nullopt);

    Preset preset = Preset::levantine;
    if (const json* r = field("rules")) {
        std::optional<Preset> p = r->is_string() ? parse_preset(r->get_ref<const std::string&>()) : std::nullopt;
        if (!p) stop(ErrorCode::unknown_rules, std::nullopt, "record", std::nullopt);
        preset = *p;
    }
    Rules rules = rules_for(preset);

    int first_dealer = 0;
    if (const json* fd = field("first_dealer")) {
        if (!fd->is_number_integer() || fd->get<long long>() < 0 || fd->get<long long>() > 3)
            stop(ErrorCode::bad_dealer, std::nullopt, "record", std::nullopt);
        first_dealer = static_cast<int>(fd->get<long long>());
    }
    if (const json* b = field("bracket")) {
        if (!b->is_boolean()) stop(ErrorCode::bad_format, std::nullopt, "record", std::nullopt);
        rules.bracket_tiebreak = b->get<bool>();
    }
    if (const json* ms = field("match_settings"); ms && ms->is_object()) {
        auto setting = [&](const char* key, int& into) {
            auto it = ms->find(key);
            if (it != ms->end() && it->is_number_integer() && it->get<long long>() > 0 && it->get<long long>() < 100000)
                into = static_cast<int>(it->get<long long>());
        };
        setting("target", rules.target);
        setting("round_cap", rules.round_cap);
        setting("pass_out_close", rules.pass_out_close);
    }
    const json* deals = field("deals");
    if (!deals || !deals->is_array()) stop(ErrorCode::bad_format, std::nullopt, "record", std::nullopt);

    out.match = Match(rules, seat(first_dealer));
    for (std::size_t i = 0; i < deals->size(); ++i) {
        const int d = static_cast<int>(i);
        if (out.match.has_round() && !out.match.round().over())
            throw Stop{incomplete(out.match.round(), (*deals)[i - 1], d - 1)};
        if (out.match.over()) stop(ErrorCode::match_over, d, "record", std::nullopt);
        if (!(*deals)[i].is_object()) stop(ErrorCode::bad_format, d, "record", std::nullopt);
        play_deal(out.match, (*deals)[i], d);
    }
}

json optional_int(const std::optional<int>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

Replay replay(std::string_view json_text) {
    Replay out;
    json top = json::parse(json_text.begin(), json_text.end(), nullptr, /*allow_exceptions=*/false);
    try {
        if (top.is_discarded()) stop(ErrorCode::bad_format, std::nullopt, "record", std::nullopt);
        read_record(top, out);
    } catch (const Stop& s) {
        out.error = s.error;
    }
    return out;
}

json deal_json(const Match& match, int i) {
    const Round& r = match.rounds()[static_cast<std::size_t>(i)];
    const bool contract = r.has_contract();
    json calls = json::array();
    for (auto c : r.calls()) calls.push_back(c == 0 ? json("pass") : json(c));
    json plays = json::array();
    for (Card c : r.plays()) plays.push_back(to_string(c));
    const auto totals = match.totals_after(i);
    const bool scored = r.phase() == Phase::scored;
    return {
        {"dealer", index(r.dealer())},
        {"passed_out", r.phase() == Phase::passed_out},
        {"declarer", contract ? json(index(r.contract()->declarer)) : json(nullptr)},
        {"bid", contract ? json(r.contract()->bid) : json(nullptr)},
        {"trump", r.trump_named() ? json(std::string(1, suit_letter(r.trump()))) : json(nullptr)},
        {"tricks", {r.tricks(Team::t0), r.tricks(Team::t1)}},
        {"made", scored ? json(r.made()) : json(nullptr)},
        {"points", {r.points(Team::t0), r.points(Team::t1)}},
        {"totals", {totals[0], totals[1]}},
        {"auction", calls},
        {"play", plays},
        {"trick_list", trick_list_json(r)},
    };
}

json trick_json(const Trick& trick, std::optional<Seat> winner) {
    json cards = json::array();
    for (int i = 0; i < trick.size(); ++i)
        cards.push_back({{"seat", index(trick.player(i))}, {"card", to_string(trick[i])}});
    return {{"leader", index(trick.leader())}, {"cards", std::move(cards)},
            {"winner", winner ? json(index(*winner)) : json(nullptr)}};
}

json trick_list_json(const Round& r) {
    json list = json::array();
    if (!r.trump_named()) return list;  // Round::trick needs the trump; no card is played before it
    for (int t = 0; t < r.tricks_played(); ++t) list.push_back(trick_json(r.trick(t), r.trick_winner(t)));
    if (!r.current_trick().empty()) list.push_back(trick_json(r.trick(r.tricks_played()), std::nullopt));
    return list;
}

json result_json(const Replay& rp) {
    const Match& m = rp.match;
    json deals = json::array();
    for (std::size_t i = 0; i < m.rounds().size(); ++i) deals.push_back(deal_json(m, static_cast<int>(i)));
    json out = {
        {"format", kResultFormat},
        {"ok", !rp.error.has_value()},
        {"status", to_string(m.status())},
        {"winner", m.winner() ? json(index(*m.winner())) : json(nullptr)},
        {"totals", {m.total(Team::t0), m.total(Team::t1)}},
        {"scored_rounds", m.scored_rounds()},
    };
    if (m.tiebreak()) out["tiebreak"] = true;
    out["deals"] = std::move(deals);
    if (rp.error) {
        const RecordError& e = *rp.error;
        out["error"] = {{"deal", optional_int(e.deal)},
                        {"phase", e.phase},
                        {"index", optional_int(e.index)},
                        {"code", to_string(e.code)}};
    }
    return out;
}

json record_json(const Match& m) {
    const Rules& rules = m.rules();
    const auto preset = preset_of(rules);
    json deals = json::array();
    for (const Round& r : m.rounds()) {
        json hands = json::array();
        for (Seat s : kSeats) hands.push_back(to_string(r.dealt(s)));
        json calls = json::array();
        for (auto c : r.calls()) calls.push_back(c == 0 ? json("pass") : json(c));
        json deal = {{"hands", hands}, {"auction", calls}};
        if (r.trump_named()) deal["trump"] = std::string(1, suit_letter(r.trump()));
        json plays = json::array();
        for (Card c : r.plays()) plays.push_back(to_string(c));
        deal["play"] = plays;
        deals.push_back(std::move(deal));
    }
    json out = {{"format", kRecordFormat},
                {"rules", to_string(preset.value_or(Preset::levantine))},
                {"first_dealer", index(m.first_dealer())}};
    if (rules.bracket_tiebreak) out["bracket"] = true;
    const Rules base = rules_for(preset.value_or(Preset::levantine));
    if (rules.target != base.target || rules.round_cap != base.round_cap || rules.pass_out_close != base.pass_out_close)
        out["match_settings"] = {{"target", rules.target}, {"round_cap", rules.round_cap}, {"pass_out_close", rules.pass_out_close}};
    out["deals"] = std::move(deals);
    return out;
}

}  // namespace tarneeb::records
