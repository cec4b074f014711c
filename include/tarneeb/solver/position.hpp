// A card-play position for the double-dummy solver, and the encodings DDS uses for it.
//
// A Position is the play phase of one round with every hand visible: the cards each seat
// still holds, the trump, the seat that led the current trick and the 0..3 cards already
// played to it (in play order). Cards already in the current trick are no longer in any hand.
// Seats are ours (0..3 in turn order), so the seat to play is next(leader, trick_size).
//
// DDS encodings (DDS 2.9 dll.h; kept here, not in dll.h terms, so that they can be tested
// without the library; src/solver/dds_adapter.cpp copies DdsDeal into DDS's `struct deal`):
//   hand   DDS hands 0..3 (N, E, S, W) play in the order 0→1→2→3, as our seats do, so
//          DDS hand h = our seat h (checked against tests/data/dd_oracle_2000.jsonl; the
//          reverse order would change about half of all values).
//   suit   DDS 0..3 = S, H, D, C (4 = no trump, never used); ours 0..3 = C, D, H, S,
//          so dds_suit = 3 - our suit.
//   rank   DDS 2..14 = 2..A; ours 0..12, so dds_rank = our rank + 2.
//   holding DDS remainCards[hand][suit] has bit (dds_rank) set per card: our 13-bit suit
//          mask shifted left by 2.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "tarneeb/core/cards.hpp"
#include "tarneeb/core/round.hpp"

namespace tarneeb::solver {

/// Why the solver refused or failed (stable snake_case names from to_string()).
enum class SolveError : std::uint8_t {
    ok = 0,
    bad_trick_size,    ///< the current trick holds more than 3 cards
    bad_card,          ///< a card outside the deck (a rank bit 13..15 set)
    duplicate_card,    ///< a card is in two hands, twice in the trick, or in a hand and the trick
    bad_card_count,    ///< hand sizes do not fit the current trick (the seats that have played
                       ///< to it hold one card fewer than the others) or exceed 13
    no_cards,          ///< nothing left to play (the round is over)
    revoke_in_trick,   ///< a trick card does not follow the suit led while its player still
                       ///< holds that suit
    bad_target,        ///< a null-window target outside 0..13 or above the tricks left
    too_many_deals,    ///< a batch call larger than the adapter allows
    not_in_play,       ///< the round is not in its play phase
    dds_failure,       ///< DDS itself returned an error (see dds_code where reported)
    stopped,           ///< the caller stopped a long analysis (analysis.hpp KeepGoing: a CPU budget)
};

/// "ok", "duplicate_card", ...
std::string_view to_string(SolveError e);

/// A play-phase position with all hands visible (see the file comment).
struct Position {
    Hands hands{};                ///< cards still held, by seat
    Suit trump = Suit::spades;
    Seat leader = Seat::s0;       ///< the seat that led (or leads) the current trick
    std::array<Card, 3> trick{};  ///< cards played to the current trick, in play order
    int trick_size = 0;           ///< 0..3

    /// The seat whose turn it is.
    Seat to_play() const { return next(leader, trick_size); }
    /// Tricks still to be played, the current one included (0 when nothing is held).
    int tricks_left() const;
    /// Cards the seat to play may play (follow the suit led if possible).
    CardSet legal_cards() const;
    friend bool operator==(const Position&, const Position&) = default;
};

/// The position of a round in phase play (every hand visible: this takes the full Round,
/// never a SeatView). Precondition: round.phase() == Phase::play.
Position position_of(const Round& round);

/// The opening position: `declarer` leads the first trick of 13 with `trump`.
Position opening_position(const Hands& hands, Suit trump, Seat declarer);

/// Checks the invariants of the file comment. DDS accepts some invalid positions and then
/// answers nonsense (or writes dump.txt), so every solver entry point calls this first.
SolveError validate(const Position& p);

// ---- DDS encodings (pure functions, round-trip tested) ---------------------------------

constexpr int dds_hand(Seat s) { return index(s); }
constexpr Seat seat_from_dds(int h) { return seat(h); }
constexpr int dds_suit(Suit s) { return 3 - index(s); }
constexpr Suit suit_from_dds(int d) { return static_cast<Suit>(3 - d); }
constexpr int dds_rank(Rank r) { return index(r) + 2; }
constexpr Rank rank_from_dds(int d) { return static_cast<Rank>(d - 2); }
/// DDS holding (bits 2..14) of one suit of a hand.
constexpr unsigned dds_holding(CardSet hand, Suit s) { return hand.ranks(s) << 2; }
/// Our cards of suit `s` from a DDS holding.
constexpr CardSet from_dds_holding(unsigned holding, Suit s) {
    return CardSet(static_cast<std::uint64_t>((holding >> 2) & CardSet::kSuitMask) << (16 * index(s)));
}

/// Field-for-field mirror of DDS's `struct deal` (dll.h), in DDS's encodings.
struct DdsDeal {
    int trump = 0;                           ///< DDS suit 0..3
    int first = 0;                           ///< DDS hand that led the current trick
    std::array<int, 3> trick_suit{};         ///< DDS suits of the trick cards (0 when absent)
    std::array<int, 3> trick_rank{};         ///< DDS ranks 2..14 of the trick cards (0 when absent)
    std::array<std::array<unsigned, 4>, 4> remain{};  ///< [DDS hand][DDS suit] holdings
    friend bool operator==(const DdsDeal&, const DdsDeal&) = default;
};

/// Position → DDS deal. The position should be valid (validate()).
DdsDeal to_dds(const Position& p);
/// DDS deal → position; the trick size is the number of leading non-zero trick ranks.
Position from_dds(const DdsDeal& d);

}  // namespace tarneeb::solver
