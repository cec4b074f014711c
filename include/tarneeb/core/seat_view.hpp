// SeatView: exactly what one seat may know at one moment (docs/rules.md; DEVELOPERS.md
// "Hidden information is sacred"). Computer players and clients only ever receive this type.
//
// It holds: the seat's own hand, the dealer, the auction so far, the contract and trump,
// every card played and by whom, the tricks per team, the match scores and the rules. It never
// holds another seat's unplayed cards: they are erased when the view is made, so no accessor
// can leak them. Derived knowledge that any player at the table has (the cards not yet seen,
// the suits a seat has shown out of) is offered as functions.
#pragma once

#include <array>

#include "tarneeb/core/match.hpp"
#include "tarneeb/core/round.hpp"

namespace tarneeb {

class SeatView {
public:
    SeatView() = default;
    /// The view of `seat` of a round, with the match scores before/after it.
    SeatView(const Round& round, Seat seat, std::array<int, 2> scores = {});
    /// The view of `seat` of the match's current round. Precondition: match.has_round().
    static SeatView of(const Match& match, Seat seat);

    Seat seat() const { return seat_; }
    const Rules& rules() const { return round_.rules(); }
    Phase phase() const { return round_.phase(); }
    Seat dealer() const { return round_.dealer(); }
    Seat to_act() const { return round_.to_act(); }
    bool my_turn() const { return !round_.over() && round_.to_act() == seat_; }
    std::array<int, 2> scores() const { return scores_; }

    /// This seat's cards still held / as dealt.
    CardSet hand() const { return round_.hand(seat_); }
    CardSet dealt() const { return round_.dealt(seat_); }

    std::span<const std::uint8_t> calls() const { return round_.calls(); }
    /// Seat that made call i (calls start with the player after the dealer).
    Seat caller(int i) const { return next(round_.dealer(), 1 + i); }
    int high_bid() const { return round_.high_bid(); }
    Seat high_bidder() const { return round_.high_bidder(); }
    std::optional<int> lowest_bid() const { return round_.lowest_bid(); }
    bool has_contract() const { return round_.has_contract(); }
    std::optional<Contract> contract() const { return round_.contract(); }
    bool trump_named() const { return round_.trump_named(); }
    Suit trump() const { return round_.trump(); }

    std::span<const Card> plays() const { return round_.plays(); }
    Seat played_by(int i) const { return round_.played_by(i); }
    CardSet played() const { return round_.played(); }
    Seat trick_leader() const { return round_.trick_leader(); }
    std::span<const Card> current_trick() const { return round_.current_trick(); }
    Trick trick(int t) const { return round_.trick(t); }
    Seat trick_winner(int t) const { return round_.trick_winner(t); }
    int tricks_played() const { return round_.tricks_played(); }
    int tricks(Team t) const { return round_.tricks(t); }
    bool made() const { return round_.made(); }
    int points(Team t) const { return round_.points(t); }

    /// Cards this seat has not seen: not in its hand and not played.
    CardSet unseen() const { return CardSet::deck() - round_.hand(seat_) - round_.played(); }
    /// True when `s` failed to follow a suit led, so it holds none of it.
    bool shown_void(Seat s, Suit suit) const { return round_.shown_void(s, suit); }
    /// How many cards `s` still holds.
    int cards_left(Seat s) const;
    /// The cards of this seat's hand equivalent to `c` (one of them, itself included): of its
    /// suit, with no card between them that is still in play, in another hand or in the
    /// current trick (a card there may sit between two of ours: over the 9 led, the 10 wins and
    /// the 6 does not, though the 7, 8 and 9 are all played). Any of them gives the same
    /// double-dummy result.
    CardSet equivalents(Card c) const;

    /// Legal actions and the timer's default, when it is this seat's turn.
    CardSet legal_cards() const { return round_.legal_cards(); }
    ActionList legal_actions() const { return round_.legal_actions(); }
    Action default_action() const { return round_.default_action(); }
    ErrorCode check(Action a) const { return round_.check(a); }

    /// Same knowledge: two views are equal when the seat could not tell the positions apart.
    friend bool operator==(const SeatView&, const SeatView&) = default;

private:
    Round round_;  ///< the round with every other seat's hand erased
    Seat seat_ = Seat::s0;
    std::array<int, 2> scores_{};
};

}  // namespace tarneeb
