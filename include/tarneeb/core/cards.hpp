// Cards, suits, ranks, seats, teams and sets of cards: the value types every other layer uses.
//
// Encoding (all values fit in one byte; a set of cards is one 64-bit mask):
//   Suit  0..3 = C, D, H, S (so S > H > D > C where rules.md breaks ties by suit order).
//   Rank  0..12 = 2, 3, ..., 10, J, Q, K, A (rules.md "Common": A high in every suit, trump too).
//   Card  bit index in a CardSet: suit * 16 + rank (bits 13..15 of each suit are always 0).
//   CardSet bits 16*s .. 16*s+12 hold suit s, so a suit's ranks are one shift away and
//   comparing two suits' 13-bit masks as numbers compares their ranks from the top down.
//   Seat  0..3 in turn order: the player after seat s is (s+1) mod 4 (rules.md "Common").
//   Team  0 = seats 0 and 2, 1 = seats 1 and 3.
//
// Text notation (docs/record-format.md "Cards"): rank A K Q J T 9..2 (also 10), suit S H D C,
// any case; output is always the canonical upper-case two-character form ("TH"). A hand is
// such cards separated by white space (parse_hand).
//
// BySeat<T> / ByTeam<T>: std::array<T, 4> / <T, 2> also indexed by Seat / Team directly.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "tarneeb/core/error.hpp"

namespace tarneeb {

enum class Suit : std::uint8_t { clubs = 0, diamonds = 1, hearts = 2, spades = 3 };
enum class Rank : std::uint8_t {
    two = 0, three, four, five, six, seven, eight, nine, ten, jack, queen, king, ace
};
enum class Seat : std::uint8_t { s0 = 0, s1 = 1, s2 = 2, s3 = 3 };
enum class Team : std::uint8_t { t0 = 0, t1 = 1 };

inline constexpr std::array<Suit, 4> kSuits{Suit::clubs, Suit::diamonds, Suit::hearts, Suit::spades};
inline constexpr std::array<Seat, 4> kSeats{Seat::s0, Seat::s1, Seat::s2, Seat::s3};

constexpr int index(Suit s) { return static_cast<int>(s); }
constexpr int index(Rank r) { return static_cast<int>(r); }
constexpr int index(Seat s) { return static_cast<int>(s); }
constexpr int index(Team t) { return static_cast<int>(t); }

/// Seat from 0..3; the value is taken modulo 4 so `seat(dealer + 1)` is the player after.
constexpr Seat seat(int i) { return static_cast<Seat>(i & 3); }  // two's complement: -1 -> 3
/// The player after `s` in turn order (rules.md: play, deal and dealer rotation).
constexpr Seat next(Seat s, int steps = 1) { return seat(index(s) + steps); }
/// The partner sits opposite.
constexpr Seat partner(Seat s) { return next(s, 2); }
/// Team 0 = seats 0 and 2, team 1 = seats 1 and 3.
constexpr Team team_of(Seat s) { return static_cast<Team>(index(s) & 1); }
constexpr Team other(Team t) { return static_cast<Team>(index(t) ^ 1); }

/// One card in one byte: suit * 16 + rank (see the file comment).
class Card {
public:
    constexpr Card() = default;
    constexpr Card(Suit s, Rank r) : bits_(static_cast<std::uint8_t>(index(s) * 16 + index(r))) {}
    /// From the bit index (suit * 16 + rank); the caller guarantees it is a valid card.
    static constexpr Card from_bit(int bit) { Card c; c.bits_ = static_cast<std::uint8_t>(bit); return c; }

    constexpr Suit suit() const { return static_cast<Suit>(bits_ >> 4); }
    constexpr Rank rank() const { return static_cast<Rank>(bits_ & 15); }
    constexpr int bit() const { return bits_; }
    /// Dense index 0..51 (suit * 13 + rank), for arrays indexed by card.
    constexpr int dense() const { return index(suit()) * 13 + index(rank()); }
    static constexpr Card from_dense(int i) { return Card(static_cast<Suit>(i / 13), static_cast<Rank>(i % 13)); }

    friend constexpr bool operator==(Card, Card) = default;
    friend constexpr auto operator<=>(Card, Card) = default;

private:
    std::uint8_t bits_ = 0;
};

namespace detail {

/// kSelectInByte[b * 8 + j]: the position (0..7) of the j-th lowest set bit of the byte b,
/// for j < popcount(b) (0 otherwise).
inline constexpr std::array<std::uint8_t, 256 * 8> kSelectInByte = [] {
    std::array<std::uint8_t, 256 * 8> t{};
    for (int b = 0; b < 256; ++b)
        for (int i = 0, j = 0; i < 8; ++i)
            if ((b >> i) & 1) t[static_cast<std::size_t>(b * 8 + j++)] = static_cast<std::uint8_t>(i);
    return t;
}();

/// The position of the k-th lowest set bit (0-based) of x; k < popcount(x). Without pdep and
/// without a loop whose exit depends on k (mispredicted nearly every call on random k): the
/// byte holding the bit is found by comparing k with the eight bytes' running population
/// counts all at once (one multiply makes them, one more broadcasts k), then a 2 KB table
/// gives the bit inside that byte (the classic broadword select64).
constexpr int select_bit(std::uint64_t x, int k) {
    constexpr std::uint64_t kOnes = 0x0101010101010101, kHighs = 0x8080808080808080;
    std::uint64_t s = x - ((x >> 1) & 0x5555555555555555);
    s = (s & 0x3333333333333333) + ((s >> 2) & 0x3333333333333333);
    s = (s + (s >> 4)) & 0x0F0F0F0F0F0F0F0F;
    const std::uint64_t sums = s * kOnes;  // byte i: the set bits of bytes 0..i (at most 64)
    // Byte i's high bit: sums byte i <= k (no borrow crosses bytes: 0x80 + k - sum > 0).
    const std::uint64_t at_most_k = ((static_cast<std::uint64_t>(k) * kOnes) + (kHighs - sums)) & kHighs;
    const int place = std::popcount(at_most_k) * 8;                       // the byte's first bit
    const int below = static_cast<int>(((sums << 8) >> place) & 0xFF);   // set bits under it
    // (& 7: a k out of range still reads inside the table.)
    return place + kSelectInByte[static_cast<std::size_t>(((x >> place) & 0xFF) * 8 + ((k - below) & 7))];
}

}  // namespace detail

/// A set of cards as a 64-bit mask (bit = Card::bit()). Iteration goes from the lowest
/// bit: clubs 2 upward to spades ace.
class CardSet {
public:
    static constexpr std::uint64_t kSuitMask = 0x1FFF;
    static constexpr std::uint64_t kDeckMask = kSuitMask | kSuitMask << 16 | kSuitMask << 32 | kSuitMask << 48;

    constexpr CardSet() = default;
    constexpr explicit CardSet(std::uint64_t bits) : bits_(bits) {}
    constexpr CardSet(Card c) : bits_(std::uint64_t{1} << c.bit()) {}  // NOLINT: a card is a set of one
    static constexpr CardSet deck() { return CardSet(kDeckMask); }
    /// Every card of one suit.
    static constexpr CardSet suit(Suit s) { return CardSet(kSuitMask << (16 * index(s))); }

    constexpr std::uint64_t bits() const { return bits_; }
    constexpr int size() const { return std::popcount(bits_); }
    constexpr bool empty() const { return bits_ == 0; }
    constexpr bool contains(Card c) const { return (bits_ >> c.bit()) & 1; }
    constexpr CardSet of(Suit s) const { return CardSet(bits_ & suit(s).bits_); }
    /// The 13-bit rank mask of one suit (bit r = rank r held).
    constexpr std::uint32_t ranks(Suit s) const {
        return static_cast<std::uint32_t>((bits_ >> (16 * index(s))) & kSuitMask);
    }
    /// Lowest / highest card by bit order; the set must not be empty.
    constexpr Card lowest() const { return Card::from_bit(std::countr_zero(bits_)); }
    constexpr Card highest() const { return Card::from_bit(63 - std::countl_zero(bits_)); }
    /// The k-th card (0-based) in iteration order; k < size(). Random play picks the k-th
    /// legal card for a random k 52 times a round, so this is on its critical path: one pdep
    /// where the build targets BMI2 (x86-64-v3, CMakeLists.txt TARNEEB_ARCH), else
    /// detail::select_bit, a branch-free select without pdep (used too where pdep is
    /// microcoded, AMD Zen 1/2: docs/performance.md "Without pdep"). Both give the same card.
    constexpr Card nth(int k) const {
#if defined(__BMI2__)
        if (!std::is_constant_evaluated())
            return Card::from_bit(std::countr_zero(_pdep_u64(std::uint64_t{1} << k, bits_)));
#endif
        return Card::from_bit(detail::select_bit(bits_, k));
    }

    constexpr CardSet& operator|=(CardSet o) { bits_ |= o.bits_; return *this; }
    constexpr CardSet& operator&=(CardSet o) { bits_ &= o.bits_; return *this; }
    constexpr CardSet& operator-=(CardSet o) { bits_ &= ~o.bits_; return *this; }
    friend constexpr CardSet operator|(CardSet a, CardSet b) { return CardSet(a.bits_ | b.bits_); }
    friend constexpr CardSet operator&(CardSet a, CardSet b) { return CardSet(a.bits_ & b.bits_); }
    friend constexpr CardSet operator-(CardSet a, CardSet b) { return CardSet(a.bits_ & ~b.bits_); }
    friend constexpr bool operator==(CardSet, CardSet) = default;

    class iterator {
    public:
        using value_type = Card;
        using difference_type = std::ptrdiff_t;
        constexpr iterator() = default;
        constexpr explicit iterator(std::uint64_t b) : b_(b) {}
        constexpr Card operator*() const { return Card::from_bit(std::countr_zero(b_)); }
        constexpr iterator& operator++() { b_ &= b_ - 1; return *this; }
        constexpr iterator operator++(int) { auto t = *this; ++*this; return t; }
        friend constexpr bool operator==(iterator, iterator) = default;
    private:
        std::uint64_t b_ = 0;
    };
    constexpr iterator begin() const { return iterator(bits_); }
    constexpr iterator end() const { return iterator(0); }

private:
    std::uint64_t bits_ = 0;
};

/// An array with one T per seat, indexed by Seat (and, as a std::array, by 0..3).
template <class T>
struct BySeat : std::array<T, 4> {
    using std::array<T, 4>::operator[];
    constexpr T& operator[](Seat s) { return (*this)[static_cast<std::size_t>(index(s))]; }
    constexpr const T& operator[](Seat s) const { return (*this)[static_cast<std::size_t>(index(s))]; }
    friend constexpr bool operator==(const BySeat&, const BySeat&) = default;
};

/// An array with one T per team, indexed by Team (and, as a std::array, by 0..1).
template <class T>
struct ByTeam : std::array<T, 2> {
    using std::array<T, 2>::operator[];
    constexpr T& operator[](Team t) { return (*this)[static_cast<std::size_t>(index(t))]; }
    constexpr const T& operator[](Team t) const { return (*this)[static_cast<std::size_t>(index(t))]; }
    friend constexpr bool operator==(const ByTeam&, const ByTeam&) = default;
};

/// Four hands, by seat.
using Hands = BySeat<CardSet>;

// ---- notation -------------------------------------------------------------------------------

/// Parses a card ("AS", "td", "10H"; any case, no surrounding space). nullopt if unreadable.
std::optional<Card> parse_card(std::string_view text);
/// Parses a suit letter S/H/D/C (any case) or the symbols ♠ ♥ ♦ ♣. nullopt if unreadable.
std::optional<Suit> parse_suit(std::string_view text);
/// A hand in text: cards of parse_card separated by white space (space, tab, CR, LF, VT, FF),
/// any number of them, e.g. "AS 10h kd" (docs/record-format.md "Cards"; record hands and
/// `tarneeb analyze --hands`).
struct ParsedHand {
    CardSet cards;                    ///< the cards read (meaningful when error is ok)
    int count = 0;                    ///< words read
    /// ok; bad_card if a word is not a card (this wins over a repeat); bad_hands if a card repeats.
    ErrorCode error = ErrorCode::ok;
};
ParsedHand parse_hand(std::string_view text);
/// Canonical two-character form, e.g. "TH".
std::string to_string(Card c);
/// "S", "H", "D" or "C".
char suit_letter(Suit s);
/// "A", "K", ..., "T", "9", ..., "2".
char rank_letter(Rank r);
/// Space-separated canonical cards in the record's hand order: suits C, D, H, S, ranks upward
/// within a suit (the order any reader accepts; record-format.md fixes none).
std::string to_string(CardSet set);

}  // namespace tarneeb
