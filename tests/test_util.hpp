// Helpers shared by the tests: hands from text, driving a round by text actions.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

#include "tarneeb/core/match.hpp"

namespace tarneeb::test {

/// `full` in a plain build, `sanitized` in a sanitizer build (TARNEEB_SANITIZED, set by CMake for
/// TARNEEB_SANITIZE). For a test's loop over many generated cases: the release build's run of the
/// suite covers every case, and a sanitizer's run checks memory and threads on a share of them
/// (a case that allocates heavily runs 30 times slower under ASan: docs/reliability.md "CI time").
constexpr int under_sanitizers(int full, int sanitized) {
#ifdef TARNEEB_SANITIZED
    (void)full;
    return sanitized;
#else
    (void)sanitized;
    return full;
#endif
}

inline CardSet cards(const std::string& text) {
    const ParsedHand hand = parse_hand(text);
    if (hand.error == ErrorCode::bad_card) throw std::invalid_argument("bad cards " + text);
    return hand.cards;
}

inline Card card(const std::string& text) { return cards(text).lowest(); }

/// The "suited" deal: seat 0 all spades but 2S, seat 1 all hearts but 2H + 2C... (see below):
/// seat k holds one whole suit, easy to reason about.
inline Hands suit_per_seat() {
    return {CardSet::suit(Suit::spades), CardSet::suit(Suit::hearts), CardSet::suit(Suit::clubs),
            CardSet::suit(Suit::diamonds)};
}

/// A fixed mixed deal (record notation), partitioning the deck.
inline Hands mixed_deal() {
    return {cards("7C AC 3D 4D 8D QD 6H 8H TH JH 4S 8S QS"), cards("2C 4C JC KC 7D JD AD 9H 2S 6S 9S TS KS"),
            cards("5C 8C 9C TC 3H 4H 7H QH KH AH 3S 7S JS"), cards("3C 6C QC 2D 5D 6D 9D TD KD 2H 5H 5S AS")};
}

/// Parses "pass", "7".."13".
inline Action call(const std::string& t) { return t == "pass" ? Action::pass() : Action::bid(std::stoi(t)); }

/// Applies calls in order; returns the first error (ok if all applied).
inline ErrorCode auction(Round& r, std::initializer_list<const char*> calls) {
    for (const char* c : calls)
        if (auto e = r.apply(call(c)); e != ErrorCode::ok) return e;
    return ErrorCode::ok;
}

/// Plays the round to the end with the timer's default action (deterministic).
inline void play_out(Round& r) {
    while (!r.over()) r.apply(r.default_action());
}

}  // namespace tarneeb::test

namespace tarneeb::test {

/// Everything observable about a round, to check that a rejected action changed nothing.
inline std::string snapshot(const Round& r) {
    std::ostringstream o;
    o << static_cast<int>(r.phase()) << '|' << index(r.to_act()) << '|' << r.high_bid() << '|'
      << index(r.high_bidder()) << '|' << r.cards_played() << '|' << r.tricks(Team::t0) << '|'
      << r.tricks(Team::t1) << '|' << index(r.trump());
    for (auto c : r.calls()) o << ',' << int(c);
    for (Seat s : kSeats) o << '|' << r.hand(s).bits();
    for (Card c : r.plays()) o << ' ' << to_string(c);
    return o.str();
}

/// Plays one round of `match`: every seat passes except `declarer`, who bids `bid` on its
/// first turn; trump `trump`; then the timer's default cards to the end.
inline void play_contract(Match& match, Seat declarer, int bid, Suit trump) {
    while (match.round().phase() == Phase::auction) {
        const bool bids = match.round().to_act() == declarer && match.round().high_bid() == 0;
        if (match.apply(bids ? Action::bid(bid) : Action::pass()) != ErrorCode::ok)
            throw std::logic_error("auction");
    }
    if (match.apply(Action::name_trump(trump)) != ErrorCode::ok) throw std::logic_error("trump");
    while (!match.round().over()) match.apply(match.round().default_action());
}

/// A deal in which all four pass.
inline void pass_out(Match& match) {
    for (int i = 0; i < 4; ++i)
        if (match.apply(Action::pass()) != ErrorCode::ok) throw std::logic_error("pass");
}

}  // namespace tarneeb::test
