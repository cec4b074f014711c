// The engine protocol's text (include/tarneeb/bots/engine_protocol.hpp, docs/engine-protocol.md).
#include "tarneeb/bots/engine_protocol.hpp"

#include <algorithm>
#include <charconv>
#include <utility>

namespace tarneeb::bots {

namespace {

/// Words of a line separated by spaces or tabs (a trailing "\r" dropped).
std::vector<std::string_view> words(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::vector<std::string_view> out;
    std::size_t at = 0;
    while (at < line.size()) {
        const std::size_t b = line.find_first_not_of(" \t", at);
        if (b == std::string_view::npos) break;
        std::size_t e = line.find_first_of(" \t", b);
        if (e == std::string_view::npos) e = line.size();
        out.push_back(line.substr(b, e - b));
        at = e;
    }
    return out;
}

/// The rest of `line` after its first `n` words (for free text), trimmed.
std::string rest_after(std::string_view line, int n) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::size_t at = 0;
    for (int i = 0; i < n; ++i) {
        at = line.find_first_not_of(" \t", at);
        if (at == std::string_view::npos) return {};
        at = line.find_first_of(" \t", at);
        if (at == std::string_view::npos) return {};
    }
    const std::size_t b = line.find_first_not_of(" \t", at);
    if (b == std::string_view::npos) return {};
    const std::size_t e = line.find_last_not_of(" \t");
    return std::string(line.substr(b, e - b + 1));
}

/// A decimal integer (optional leading '-'), the whole word.
std::optional<long long> to_int(std::string_view w) {
    long long v = 0;
    const auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || p != w.data() + w.size() || w.empty()) return std::nullopt;
    return v;
}

std::optional<Seat> to_seat(std::string_view w) {
    if (w.size() != 1 || w[0] < '0' || w[0] > '3') return std::nullopt;
    return seat(w[0] - '0');
}

std::string_view auction_name(AuctionStyle a) { return a == AuctionStyle::open ? "open" : "single_round_dealer_equals"; }
std::string_view scoring_name(ScoringStyle s) { return s == ScoringStyle::bid_value ? "bid_value" : "tricks_won"; }
std::string_view dealer_name(PassOutDealer d) { return d == PassOutDealer::next ? "next" : "same"; }

char seat_char(Seat s) { return static_cast<char>('0' + index(s)); }

/// Tricks won by each team in the first `n` finished tricks of the view's round.
std::array<int, 2> tricks_after(const SeatView& view, int n) {
    std::array<int, 2> t{};
    for (int i = 0; i < n; ++i) ++t[static_cast<std::size_t>(index(team_of(view.trick_winner(i))))];
    return t;
}

/// The totals when the view's round began (a scored round's view carries the totals after it).
std::array<int, 2> start_totals(const SeatView& view) {
    std::array<int, 2> t = view.scores();
    if (view.phase() == Phase::scored)
        for (Team team : {Team::t0, Team::t1}) t[static_cast<std::size_t>(index(team))] -= view.points(team);
    return t;
}

}  // namespace

// ---- notation -----------------------------------------------------------------------------

std::string action_token(Action a) {
    switch (a.kind) {
        case ActionKind::call: return a.is_pass() ? std::string("pass") : std::to_string(a.bid_value());
        case ActionKind::trump: return std::string(1, suit_letter(a.suit()));
        case ActionKind::play: return to_string(a.card());
    }
    return "?";
}

std::optional<Action> parse_action_token(std::string_view t, Phase phase) {
    switch (phase) {
        case Phase::auction: {
            if (t == "pass") return Action::pass();
            if (t.empty() || t.size() > 2 || t[0] == '0') return std::nullopt;
            if (!std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
            return Action::bid(static_cast<int>(*to_int(t)));
        }
        case Phase::trump: {
            if (t.size() != 1) return std::nullopt;  // letters only, not the symbols
            const auto s = parse_suit(t);
            if (!s) return std::nullopt;
            return Action::name_trump(*s);
        }
        case Phase::play: {
            const auto c = parse_card(t);
            if (!c) return std::nullopt;
            return Action::play(*c);
        }
        default: return std::nullopt;
    }
}

std::string legal_tokens(const SeatView& view) {
    std::string out;
    for (Action a : view.legal_actions()) {
        if (!out.empty()) out += ' ';
        out += action_token(a);
    }
    return out;
}

std::string_view rules_name(const Rules& rules) {
    // The play rules only: target, cap, pass-out close and tie-break are match settings a
    // table may change within a preset (rules.md "Preset classic").
    const auto same_play = [&rules](const Rules& p) {
        return rules.auction == p.auction && rules.scoring == p.scoring && rules.pass_out_dealer == p.pass_out_dealer &&
               rules.min_bid == p.min_bid && rules.max_bid == p.max_bid;
    };
    if (same_play(kLevantine)) return "levantine";
    if (same_play(kClassic)) return "classic";
    return "custom";
}

std::optional<std::vector<std::string>> split_command(std::string_view command) {
    std::vector<std::string> out;
    std::string word;
    bool in_word = false;
    for (std::size_t i = 0; i < command.size(); ++i) {
        const char c = command[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) out.push_back(std::exchange(word, {}));
            in_word = false;
            continue;
        }
        in_word = true;
        if (c == '\\') {
            if (++i == command.size()) return std::nullopt;
            word += command[i];
        } else if (c == '\'') {
            const std::size_t end = command.find('\'', i + 1);
            if (end == std::string_view::npos) return std::nullopt;
            word.append(command.substr(i + 1, end - i - 1));
            i = end;
        } else if (c == '"') {
            for (++i;; ++i) {
                if (i == command.size()) return std::nullopt;
                const char d = command[i];
                if (d == '"') break;
                if (d == '\\' && i + 1 < command.size() &&
                    (command[i + 1] == '"' || command[i + 1] == '\\' || command[i + 1] == '$' || command[i + 1] == '`'))
                    ++i;
                word += command[i];
            }
        } else {
            word += c;
        }
    }
    if (in_word) out.push_back(std::move(word));
    return out;
}

// ---- the host's side ----------------------------------------------------------------------

void EngineFeed::new_match(const SeatView& view, std::string& out) {
    const Rules& r = view.rules();
    const std::array<int, 2> t = start_totals(view);
    out += "newmatch seat ";
    out += seat_char(view.seat());
    out += " rules ";
    out += rules_name(r);
    out += " auction ";
    out += auction_name(r.auction);
    out += " scoring ";
    out += scoring_name(r.scoring);
    out += " pass_out_dealer ";
    out += dealer_name(r.pass_out_dealer);
    out += " min_bid " + std::to_string(r.min_bid) + " max_bid " + std::to_string(r.max_bid) + " target " +
           std::to_string(r.target) + " round_cap " + std::to_string(r.round_cap) + " pass_out_close " +
           std::to_string(r.pass_out_close) + " bracket_tiebreak " + (r.bracket_tiebreak ? "true" : "false") +
           " total0 " + std::to_string(t[0]) + " total1 " + std::to_string(t[1]) + "\n";
    *this = EngineFeed();
    match_ = true;
    seat_ = view.seat();
    rules_ = r;
    totals_ = t;
}

void EngineFeed::new_deal(const SeatView& view, std::string& out) {
    // Only this seat's own hand: the one hand a SeatView holds.
    out += "deal dealer ";
    out += seat_char(view.dealer());
    out += " hand";
    for (Card c : view.dealt()) {
        out += ' ';
        out += to_string(c);
    }
    out += '\n';
    deal_ = true;
    dealer_ = view.dealer();
    dealt_ = view.dealt();
    calls_ = 0;
    closed_ = passed_out_ = trump_ = scored_ = false;
    plays_ = 0;
}

std::string EngineFeed::sync(const SeatView& view) {
    std::string out;
    const bool same_deal = match_ && deal_ && view.seat() == seat_ && view.rules() == rules_ &&
                           view.dealer() == dealer_ && view.dealt() == dealt_ && calls_ <= view.calls().size() &&
                           plays_ <= view.plays().size();
    if (!same_deal) {
        // The next deal of the same match, or else a new match (the class comment).
        const bool continues = match_ && view.seat() == seat_ && view.rules() == rules_ &&
                               start_totals(view) == totals_ && (!deal_ || scored_ || passed_out_);
        if (!continues) new_match(view, out);
        new_deal(view, out);
    }
    const auto calls = view.calls();
    for (; calls_ < calls.size(); ++calls_) {
        out += "call ";
        out += seat_char(view.caller(static_cast<int>(calls_)));
        out += ' ';
        out += calls[calls_] == 0 ? std::string("pass") : std::to_string(calls[calls_]);
        out += '\n';
    }
    if (!closed_ && view.phase() == Phase::passed_out) {
        out += "passout\n";
        closed_ = passed_out_ = true;
    }
    if (!closed_ && view.has_contract()) {
        const Contract c = *view.contract();
        out += "contract ";
        out += seat_char(c.declarer);
        out += ' ' + std::to_string(c.bid) + '\n';
        closed_ = true;
    }
    if (!trump_ && view.trump_named()) {
        out += "trump ";
        out += seat_char(view.contract()->declarer);
        out += ' ';
        out += suit_letter(view.trump());
        out += '\n';
        trump_ = true;
    }
    const auto plays = view.plays();
    for (; plays_ < plays.size(); ++plays_) {
        const int i = static_cast<int>(plays_);
        out += "play ";
        out += seat_char(view.played_by(i));
        out += ' ';
        out += to_string(plays[plays_]);
        out += '\n';
        if (i % 4 == 3) {
            const auto t = tricks_after(view, i / 4 + 1);
            out += "trick ";
            out += seat_char(view.trick_winner(i / 4));
            out += ' ' + std::to_string(t[0]) + ' ' + std::to_string(t[1]) + '\n';
        }
    }
    if (!scored_ && view.phase() == Phase::scored) {
        const auto s = view.scores();
        out += view.made() ? "score made " : "score set ";
        out += std::to_string(view.points(Team::t0)) + ' ' + std::to_string(view.points(Team::t1)) + ' ' +
               std::to_string(s[0]) + ' ' + std::to_string(s[1]) + '\n';
        totals_ = s;
        scored_ = true;
    }
    return out;
}

std::string go_line(const SeatView& view, int budget_ms) {
    return "go budget_ms " + std::to_string(budget_ms) + " legal " + legal_tokens(view) + "\n";
}

std::string hello_line() { return "tarneeb-engine " + std::to_string(kEngineProtocolVersion) + "\n"; }

std::string setoption_line(std::string_view name, std::string_view value) {
    return "setoption name " + std::string(name) + " value " + std::string(value) + "\n";
}

std::string option_line(const EngineOption& o) {
    std::string out = "option name " + o.name + " type " + o.type + " default " + o.default_value;
    if (o.min) out += " min " + std::to_string(*o.min);
    if (o.max) out += " max " + std::to_string(*o.max);
    return out + "\n";
}

EngineLine parse_engine_line(std::string_view line) {
    const auto w = words(line);
    EngineLine out;
    out.text = std::string(line.substr(0, line.size() - (!line.empty() && line.back() == '\r')));
    if (w.empty()) return out;
    if (w[0] == "action" && w.size() == 2) {
        out.kind = EngineLine::Kind::action;
        out.text = std::string(w[1]);
    } else if (w[0] == "ready" && w.size() == 1) {
        out.kind = EngineLine::Kind::ready;
    } else if (w[0] == "info") {
        out.kind = EngineLine::Kind::info;
        out.text = rest_after(line, 1);
    } else if (w[0] == "error") {
        out.kind = EngineLine::Kind::error;
        out.text = rest_after(line, 1);
    } else if (w[0] == "id" && w.size() >= 3 && (w[1] == "name" || w[1] == "author")) {
        out.kind = w[1] == "name" ? EngineLine::Kind::id_name : EngineLine::Kind::id_author;
        out.text = rest_after(line, 2);
    } else if (w[0] == "option" && w.size() >= 7 && w[1] == "name" && w[3] == "type" && w[5] == "default") {
        EngineOption o{std::string(w[2]), std::string(w[4]), std::string(w[6]), std::nullopt, std::nullopt};
        if (o.type != "int" && o.type != "bool" && o.type != "string") return out;
        for (std::size_t i = 7; i + 1 < w.size(); i += 2) {
            const auto v = to_int(w[i + 1]);
            if (!v || (w[i] != "min" && w[i] != "max")) return out;
            (w[i] == "min" ? o.min : o.max) = *v;
        }
        if ((w.size() - 7) % 2 != 0) return out;
        out.kind = EngineLine::Kind::option;
        out.option = std::move(o);
    }
    return out;
}

// ---- the engine's side --------------------------------------------------------------------

std::optional<GoRequest> parse_go(std::string_view line) {
    const auto w = words(line);
    if (w.size() < 4 || w[0] != "go" || w[1] != "budget_ms" || w[3] != "legal") return std::nullopt;
    const auto budget = to_int(w[2]);
    if (!budget || *budget < 0 || *budget > 1'000'000'000) return std::nullopt;
    GoRequest g;
    g.budget_ms = static_cast<int>(*budget);
    for (std::size_t i = 4; i < w.size(); ++i) g.legal.emplace_back(w[i]);
    return g;
}

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
        const auto n = to_int(v);
        if (k == "seat") s = to_seat(v);
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
    const auto d = to_seat(w[2]);
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

namespace {

/// Word i of a line as an integer, if there is one.
std::optional<long long> int_at(const std::vector<std::string_view>& w, std::size_t i) {
    return i < w.size() ? to_int(w[i]) : std::nullopt;
}

}  // namespace

std::optional<std::string> EngineGame::on_action(const Words& w) {
    // call SEAT X | trump SEAT X | play SEAT CARD
    const std::string k(w[0]);
    if (w.size() != 3) return k + ": expected " + k + " SEAT ACTION";
    const auto by = to_seat(w[1]);
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
    const auto by = w.size() == 3 ? to_seat(w[1]) : std::nullopt;
    if (!c || !by || c->declarer != *by || int_at(w, 2) != c->bid) return "contract: does not match the auction";
    return std::nullopt;
}

std::optional<std::string> EngineGame::on_trick(const Words& w) {
    const int t = round_.tricks_played() - 1;
    const auto by = w.size() == 4 ? to_seat(w[1]) : std::nullopt;
    if (t < 0 || round_.cards_played() % 4 != 0 || !by || round_.trick_winner(t) != *by ||
        int_at(w, 2) != round_.tricks(Team::t0) || int_at(w, 3) != round_.tricks(Team::t1))
        return "trick: does not match the cards played";
    return std::nullopt;
}

std::optional<std::string> EngineGame::on_score(const Words& w) {
    if (w.size() != 6 || (w[1] != "made" && w[1] != "set")) return "score: expected score made|set P0 P1 T0 T1";
    const auto t0 = int_at(w, 4), t1 = int_at(w, 5);
    if (round_.phase() != Phase::scored || (w[1] == "made") != round_.made() || int_at(w, 2) != round_.points(Team::t0) ||
        int_at(w, 3) != round_.points(Team::t1) || !t0 || !t1 || *t0 < -1'000'000 || *t0 > 1'000'000 ||
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
    const Words w = words(line);
    if (w.empty()) return "empty line";
    for (const Handler& h : kHandlers) {
        if (h.word != w[0]) continue;
        if (h.needs_deal && !deal_) return std::string(w[0]) + " before deal";
        return (this->*h.handle)(w);
    }
    return "unknown line " + std::string(w[0]);
}

}  // namespace tarneeb::bots
