// The engine's side of the engine protocol's game lines (include/tarneeb/bots/engine_game.hpp):
// EngineGame applies the host's lines to a Round whose hidden hands are filled in to fit every
// card played (fitting_deal), and hands out only the seat's SeatView.
#include "tarneeb/bots/engine_game.hpp"

#include <algorithm>
#include <utility>

#include "engine_words.hpp"
#include "tarneeb/bots/engine_notation.hpp"

namespace tarneeb::bots {

namespace {

/// The other seats' cards for a deal that replays `plays` (card, seat) by the rules: each seat
/// holds what it played plus some of the cards nobody has seen, none of a suit it showed out
/// of, 13 in all. A maximum flow from the unseen cards' suits to the seats (4 x 3, tiny);
/// nullopt when no deal fits.
std::optional<Hands> fitting_deal(Seat me, CardSet my_hand, const std::vector<std::pair<Seat, Card>>& plays) {
    Hands hands{};
    hands[me] = my_hand;
    BySeat<unsigned> voids{};
    CardSet played;
    for (std::size_t i = 0; i < plays.size(); ++i) {
        const auto [by, c] = plays[i];
        played |= c;
        if (by != me) hands[by] |= c;
        const Suit led = plays[i & ~std::size_t{3}].second.suit();
        if (c.suit() != led) voids[by] |= 1u << index(led);
    }
    const CardSet unseen = CardSet::deck() - my_hand - played;
    // Nodes: 0 source, 1..4 suits, 5..8 seats, 9 sink (the own seat's node has no capacity).
    std::array<std::array<int, 10>, 10> cap{};
    for (Suit s : {Suit::clubs, Suit::diamonds, Suit::hearts, Suit::spades}) {
        cap[0][1 + index(s)] = unseen.of(s).size();
        for (Seat p : kSeats)
            if (p != me && !((voids[p] >> index(s)) & 1)) cap[1 + index(s)][5 + index(p)] = 13;
    }
    for (Seat p : kSeats)
        if (p != me) cap[5 + index(p)][9] = 13 - hands[p].size();
    std::array<std::array<int, 10>, 10> flow{};
    for (;;) {  // augmenting paths by breadth-first search
        std::array<int, 10> from;
        from.fill(-1);
        from[0] = 0;
        std::vector<int> queue{0};
        for (std::size_t q = 0; q < queue.size() && from[9] < 0; ++q)
            for (int v = 0; v < 10; ++v)
                if (from[v] < 0 && cap[queue[q]][v] - flow[queue[q]][v] + flow[v][queue[q]] > 0) {
                    from[v] = queue[q];
                    queue.push_back(v);
                }
        if (from[9] < 0) break;
        int push = 1 << 20;
        for (int v = 9; v != 0; v = from[v]) push = std::min(push, cap[from[v]][v] - flow[from[v]][v] + flow[v][from[v]]);
        for (int v = 9; v != 0; v = from[v]) {
            const int back = std::min(push, flow[v][from[v]]);
            flow[v][from[v]] -= back;
            flow[from[v]][v] += push - back;
        }
    }
    for (Suit s : {Suit::clubs, Suit::diamonds, Suit::hearts, Suit::spades}) {
        CardSet left = unseen.of(s);
        for (Seat p : kSeats) {
            if (p == me) continue;
            for (int k = flow[1 + index(s)][5 + index(p)]; k > 0; --k) {
                const Card c = left.lowest();
                hands[p] |= c;
                left -= c;
            }
        }
        if (!left.empty()) return std::nullopt;
    }
    for (Seat p : kSeats)
        if (hands[p].size() != 13) return std::nullopt;
    return hands;
}

}  // namespace

SeatView EngineGame::view() const { return SeatView(round_, seat_, round_.over() ? totals_ : deal_start_); }

bool EngineGame::rebuild(Seat extra_by, Card extra) {
    std::vector<std::pair<Seat, Card>> plays;
    const auto past = round_.plays();
    for (std::size_t i = 0; i < past.size(); ++i) plays.emplace_back(round_.played_by(static_cast<int>(i)), past[i]);
    plays.emplace_back(extra_by, extra);
    const auto hands = fitting_deal(seat_, hand_, plays);
    if (!hands) return false;
    Round r(rules_, dealer_, *hands);
    for (Action a : history_)
        if (r.apply(a) != ErrorCode::ok) return false;
    round_ = r;
    return true;
}

std::optional<std::string> EngineGame::on_newmatch(const Words& w) {
    Rules r{};
    std::optional<Seat> s;
    std::array<int, 2> totals{};
    if (w.size() % 2 != 1) return "newmatch: keys and values do not pair up";
    // The preset first, wherever it is; the other keys override its knobs.
    for (std::size_t i = 1; i + 1 < w.size(); i += 2)
        if (w[i] == "rules") {
            if (const auto p = parse_preset(w[i + 1])) r = rules_for(*p);
            else if (w[i + 1] != "custom") return "newmatch: unknown rules " + std::string(w[i + 1]);
        }
    for (std::size_t i = 1; i + 1 < w.size(); i += 2) {
        const std::string_view k = w[i], v = w[i + 1];
        const auto n = detail::to_int(v);
        if (k == "seat") s = detail::to_seat(v);
        else if (k == "rules") continue;
        else if (k == "auction") {
            if (v == "open") r.auction = AuctionStyle::open;
            else if (v == "single_round_dealer_equals") r.auction = AuctionStyle::single_round_dealer_equals;
            else return "newmatch: unknown auction " + std::string(v);
        } else if (k == "scoring") {
            if (v == "bid_value") r.scoring = ScoringStyle::bid_value;
            else if (v == "tricks_won") r.scoring = ScoringStyle::tricks_won;
            else return "newmatch: unknown scoring " + std::string(v);
        } else if (k == "pass_out_dealer") {
            if (v == "next") r.pass_out_dealer = PassOutDealer::next;
            else if (v == "same") r.pass_out_dealer = PassOutDealer::same;
            else return "newmatch: unknown pass_out_dealer " + std::string(v);
        } else if (k == "bracket_tiebreak") {
            if (v != "true" && v != "false") return "newmatch: bracket_tiebreak is true or false";
            r.bracket_tiebreak = v == "true";
        } else if (k == "min_bid" || k == "max_bid" || k == "target" || k == "round_cap" || k == "pass_out_close" ||
                   k == "total0" || k == "total1") {
            if (!n || *n < -1'000'000 || *n > 1'000'000) return "newmatch: " + std::string(k) + " is not a number";
            const int x = static_cast<int>(*n);
            if (k == "min_bid") r.min_bid = x;
            else if (k == "max_bid") r.max_bid = x;
            else if (k == "target") r.target = x;
            else if (k == "round_cap") r.round_cap = x;
            else if (k == "pass_out_close") r.pass_out_close = x;
            else if (k == "total0") totals[0] = x;
            else totals[1] = x;
        }
        // Any other key: a later protocol's, ignored (docs/engine-protocol.md "Versions").
    }
    if (!s) return "newmatch: no seat";
    // Bids are 7..13 tricks in every preset (rules.md "Common to both presets"); a wider range
    // has no meaning and would list more legal calls than a round holds (ActionList).
    if (r.min_bid < 7 || r.max_bid > 13 || r.min_bid > r.max_bid) return "newmatch: the bid range must lie within 7..13";
    *this = EngineGame();
    match_ = true;
    seat_ = *s;
    rules_ = r;
    totals_ = totals;
    return std::nullopt;
}

std::optional<std::string> EngineGame::on_deal(const Words& w) {
    if (!match_) return "deal before newmatch";
    if (w.size() != 17 || w[1] != "dealer" || w[3] != "hand") return "deal: expected deal dealer D hand and 13 cards";
    const auto d = detail::to_seat(w[2]);
    if (!d) return "deal: bad dealer";
    CardSet hand;
    for (std::size_t i = 4; i < w.size(); ++i) {
        const auto c = parse_card(w[i]);
        if (!c || hand.contains(*c)) return "deal: bad hand";
        hand |= *c;
    }
    // The other seats' cards are unknown: any fill-in will do until they play (rebuild()).
    Hands hands{};
    hands[seat_] = hand;
    CardSet rest = CardSet::deck() - hand;
    for (Seat p : kSeats) {
        if (p == seat_) continue;
        for (int k = 0; k < 13; ++k) {
            const Card c = rest.lowest();
            hands[p] |= c;
            rest -= c;
        }
    }
    deal_ = true;
    dealer_ = *d;
    hand_ = hand;
    deal_start_ = totals_;
    history_.clear();
    round_ = Round(rules_, dealer_, hands);
    return std::nullopt;
}

std::optional<std::string> EngineGame::on_play(Seat by, Card c) {
    const Action a = Action::play(c);
    // Another seat cannot hold one of this seat's cards nor one already played.
    if (by != seat_ && (hand_.contains(c) || round_.played().contains(c))) return "play: card_not_held";
    if (by != seat_ && round_.phase() == Phase::play && round_.to_act() == by && round_.check(a) != ErrorCode::ok &&
        !rebuild(by, c))
        return "play: no deal fits the cards played so far";
    if (const ErrorCode e = round_.apply(by, a); e != ErrorCode::ok) return "play: " + std::string(to_string(e));
    history_.push_back(a);
    return std::nullopt;
}

std::optional<std::string> EngineGame::on_action(const Words& w) {
    // call SEAT X | trump SEAT X | play SEAT CARD
    const std::string k(w[0]);
    if (w.size() != 3) return k + ": expected " + k + " SEAT ACTION";
    const auto by = detail::to_seat(w[1]);
    const Phase phase = k == "call" ? Phase::auction : k == "trump" ? Phase::trump : Phase::play;
    const auto a = parse_action_token(w[2], phase);
    if (!by || !a) return k + ": unreadable";
    if (phase == Phase::play) {
        if (auto e = on_play(*by, a->card())) return e;
    } else {
        if (const ErrorCode e = round_.apply(*by, *a); e != ErrorCode::ok) return k + ": " + std::string(to_string(e));
        history_.push_back(*a);
    }
    last_action_ = std::make_pair(*by, *a);
    return std::nullopt;
}

std::optional<std::string> EngineGame::on_passout(const Words&) {
    if (round_.phase() != Phase::passed_out) return "passout: the auction is not passed out";
    return std::nullopt;
}

std::optional<std::string> EngineGame::on_contract(const Words& w) {
    const auto c = round_.contract();
    const auto by = w.size() == 3 ? detail::to_seat(w[1]) : std::nullopt;
    if (!c || !by || c->declarer != *by || detail::int_at(w, 2) != c->bid) return "contract: does not match the auction";
    return std::nullopt;
}

std::optional<std::string> EngineGame::on_trick(const Words& w) {
    const int t = round_.tricks_played() - 1;
    const auto by = w.size() == 4 ? detail::to_seat(w[1]) : std::nullopt;
    if (t < 0 || round_.cards_played() % 4 != 0 || !by || round_.trick_winner(t) != *by ||
        detail::int_at(w, 2) != round_.tricks(Team::t0) || detail::int_at(w, 3) != round_.tricks(Team::t1))
        return "trick: does not match the cards played";
    return std::nullopt;
}

std::optional<std::string> EngineGame::on_score(const Words& w) {
    if (w.size() != 6 || (w[1] != "made" && w[1] != "set")) return "score: expected score made|set P0 P1 T0 T1";
    const auto t0 = detail::int_at(w, 4), t1 = detail::int_at(w, 5);
    if (round_.phase() != Phase::scored || (w[1] == "made") != round_.made() || detail::int_at(w, 2) != round_.points(Team::t0) ||
        detail::int_at(w, 3) != round_.points(Team::t1) || !t0 || !t1 || *t0 < -1'000'000 || *t0 > 1'000'000 ||
        *t1 < -1'000'000 || *t1 > 1'000'000)
        return "score: does not match the round";
    totals_ = {static_cast<int>(*t0), static_cast<int>(*t1)};
    return std::nullopt;
}

std::optional<std::string> EngineGame::apply(std::string_view line) {
    // The dispatcher: a table of handlers by the line's first word.
    struct Handler {
        std::string_view word;
        bool needs_deal;
        std::optional<std::string> (EngineGame::*handle)(const Words&);
    };
    static constexpr Handler kHandlers[] = {
        {"newmatch", false, &EngineGame::on_newmatch}, {"deal", false, &EngineGame::on_deal},
        {"call", true, &EngineGame::on_action},        {"trump", true, &EngineGame::on_action},
        {"play", true, &EngineGame::on_action},        {"passout", true, &EngineGame::on_passout},
        {"contract", true, &EngineGame::on_contract},  {"trick", true, &EngineGame::on_trick},
        {"score", true, &EngineGame::on_score},
    };
    last_action_.reset();
    const Words w = detail::words(line);
    if (w.empty()) return "empty line";
    for (const Handler& h : kHandlers) {
        if (h.word != w[0]) continue;
        if (h.needs_deal && !deal_) return std::string(w[0]) + " before deal";
        return (this->*h.handle)(w);
    }
    return "unknown line " + std::string(w[0]);
}

}  // namespace tarneeb::bots
