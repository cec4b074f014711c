// A trick: up to four cards in the order played, the seat that led it and the trump suit of the
// round. The one place in C++ that says who wins a trick (docs/rules.md "Common to both
// presets", Play): the highest trump wins; with no trump in it, the highest card of the suit
// led; a card of any other suit never wins.
//
// Trick is a small trivially copyable value (8 bytes); the winner so far is kept as cards are
// added, so asking for it is free. Round::trick(t) gives any trick of a round.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "tarneeb/core/cards.hpp"

namespace tarneeb {

/// rules.md "Play": true when `a` takes the trick from `b` in a trick led in `led` with trump
/// `trump`: a trump beats any other suit, a higher card of the same suit beats a lower one if
/// that suit is trump or the suit led, and a card of any other suit beats nothing.
constexpr bool beats(Card a, Card b, Suit led, Suit trump) {
    if (a.suit() == b.suit()) return a.rank() > b.rank() && (a.suit() == led || a.suit() == trump);
    return a.suit() == trump || (a.suit() == led && b.suit() != trump);
}

class Trick {
public:
    constexpr Trick() = default;
    /// An empty trick that `leader` leads, with `trump` the round's trump suit.
    constexpr Trick(Seat leader, Suit trump) : leader_(leader), trump_(trump) {}

    /// Plays the next card (by the seat after the last one). Precondition: !complete().
    constexpr void add(Card c) {
        if (size_ == 0 || beats(c, cards_[winning_], led(), trump_)) winning_ = size_;
        cards_[size_++] = c;
    }

    constexpr Seat leader() const { return leader_; }
    constexpr Suit trump() const { return trump_; }
    constexpr int size() const { return size_; }
    constexpr bool empty() const { return size_ == 0; }
    constexpr bool complete() const { return size_ == 4; }
    /// The i-th card played (0 = the lead), i < size().
    constexpr Card operator[](int i) const { return cards_[static_cast<std::size_t>(i)]; }
    std::span<const Card> cards() const { return {cards_.data(), size_}; }
    /// Who played (or plays) the i-th card: the leader, then in turn order.
    constexpr Seat player(int i) const { return next(leader_, i); }
    /// The suit led. Precondition: !empty().
    constexpr Suit led() const { return cards_[0].suit(); }
    /// The card winning so far (the trick's winning card once complete()). Precondition: !empty().
    constexpr Card winning_card() const { return cards_[winning_]; }
    /// The seat winning so far (the trick's winner once complete()). Precondition: !empty().
    constexpr Seat winner() const { return player(winning_); }

    friend constexpr bool operator==(const Trick&, const Trick&) = default;

private:
    std::array<Card, 4> cards_{};
    Seat leader_ = Seat::s0;
    Suit trump_ = Suit::spades;
    std::uint8_t size_ = 0;
    std::uint8_t winning_ = 0;
};

}  // namespace tarneeb
