// The host's side of the engine protocol's game lines (include/tarneeb/bots/engine_feed.hpp):
// EngineFeed writes what a seat's SeatView shows that the engine has not been told yet.
#include "tarneeb/bots/engine_feed.hpp"

#include "engine_words.hpp"
#include "tarneeb/bots/engine_notation.hpp"

namespace tarneeb::bots {

namespace {

std::string_view auction_name(AuctionStyle a) { return a == AuctionStyle::open ? "open" : "single_round_dealer_equals"; }
std::string_view scoring_name(ScoringStyle s) { return s == ScoringStyle::bid_value ? "bid_value" : "tricks_won"; }
std::string_view dealer_name(PassOutDealer d) { return d == PassOutDealer::next ? "next" : "same"; }

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

void EngineFeed::new_match(const SeatView& view, std::string& out) {
    const Rules& r = view.rules();
    const std::array<int, 2> t = start_totals(view);
    out += "newmatch seat ";
    out += detail::seat_char(view.seat());
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
    out += detail::seat_char(view.dealer());
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
        out += detail::seat_char(view.caller(static_cast<int>(calls_)));
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
        out += detail::seat_char(c.declarer);
        out += ' ' + std::to_string(c.bid) + '\n';
        closed_ = true;
    }
    if (!trump_ && view.trump_named()) {
        out += "trump ";
        out += detail::seat_char(view.contract()->declarer);
        out += ' ';
        out += suit_letter(view.trump());
        out += '\n';
        trump_ = true;
    }
    const auto plays = view.plays();
    for (; plays_ < plays.size(); ++plays_) {
        const int i = static_cast<int>(plays_);
        out += "play ";
        out += detail::seat_char(view.played_by(i));
        out += ' ';
        out += to_string(plays[plays_]);
        out += '\n';
        if (i % 4 == 3) {
            const auto t = tricks_after(view, i / 4 + 1);
            out += "trick ";
            out += detail::seat_char(view.trick_winner(i / 4));
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

}  // namespace tarneeb::bots
