// One round (deal) of Tarneeb: auction → trump → 13 tricks → score (docs/rules.md).
//
// A Round is a trivially copyable value (about 300 bytes, no heap): bots copy it freely to
// look ahead, and a copy behaves exactly like the original. Every change goes through
// apply(), which either succeeds or returns an ErrorCode and leaves the round untouched.
//
// Actions (one byte of kind, one of value):
//   call  value 0 = pass, 7..13 = bid (tricks for the team)
//   trump value = Suit
//   play  value = Card::bit()
// Phases: auction → trump → play → scored, or auction → passed_out (all four passed).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "tarneeb/core/cards.hpp"
#include "tarneeb/core/error.hpp"
#include "tarneeb/core/rules.hpp"

namespace tarneeb {

enum class Phase : std::uint8_t { auction, trump, play, scored, passed_out };
enum class ActionKind : std::uint8_t { call, trump, play };

struct Action {
    ActionKind kind = ActionKind::call;
    std::uint8_t value = 0;

    static constexpr Action pass() { return {ActionKind::call, 0}; }
    static constexpr Action bid(int tricks) { return {ActionKind::call, static_cast<std::uint8_t>(tricks)}; }
    static constexpr Action name_trump(Suit s) { return {ActionKind::trump, static_cast<std::uint8_t>(s)}; }
    static constexpr Action play(Card c) { return {ActionKind::play, static_cast<std::uint8_t>(c.bit())}; }

    constexpr bool is_pass() const { return kind == ActionKind::call && value == 0; }
    constexpr int bid_value() const { return value; }  ///< for a call: 0 = pass
    constexpr Suit suit() const { return static_cast<Suit>(value); }
    constexpr Card card() const { return Card::from_bit(value); }
    friend constexpr bool operator==(Action, Action) = default;
};

/// "pass", "8", "trump H", "QS".
std::string to_string(Action a);

/// A fixed-capacity list of actions (at most 13 are ever legal at once).
class ActionList {
public:
    static constexpr int kCapacity = 13;
    void push_back(Action a) { items_[size_++] = a; }
    int size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Action operator[](int i) const { return items_[i]; }
    const Action* begin() const { return items_.data(); }
    const Action* end() const { return items_.data() + size_; }
    bool contains(Action a) const;

private:
    std::array<Action, kCapacity> items_{};
    int size_ = 0;
};

class Round {
public:
    /// Longest possible levantine auction: 3 passes, 7 bids each but the last followed by up
    /// to 2 passes, and the 3 closing passes.
    static constexpr int kMaxCalls = 3 + 7 + 6 * 2 + 3;

    Round() = default;
    /// A new round: `hands` must be four 13-card hands partitioning the deck (the records
    /// layer checks them; this constructor assumes it). The auction starts after the dealer.
    Round(const Rules& rules, Seat dealer, const Hands& hands);

    const Rules& rules() const { return rules_; }
    Phase phase() const { return phase_; }
    bool over() const { return phase_ == Phase::scored || phase_ == Phase::passed_out; }
    Seat dealer() const { return dealer_; }
    /// The seat whose turn it is (auction: caller, trump: declarer, play: next to play).
    /// Meaningless once over().
    Seat to_act() const { return to_act_; }

    /// Cards still held. dealt(): the hand as dealt.
    CardSet hand(Seat s) const { return hands_[index(s)]; }
    CardSet dealt(Seat s) const { return dealt_[index(s)]; }
    const Hands& dealt_hands() const { return dealt_; }

    // ---- auction --------------------------------------------------------------------
    /// Calls so far in turn order from the player after the dealer (0 = pass, else the bid).
    std::span<const std::uint8_t> calls() const { return {calls_.data(), num_calls_}; }
    /// Standing high bid (0 if none). After the auction it is the contract.
    int high_bid() const { return high_bid_; }
    /// Seat of the standing high bid; meaningful when high_bid() > 0.
    Seat high_bidder() const { return high_bidder_; }
    /// True once the auction closed with a contract.
    bool has_contract() const { return phase_ != Phase::auction && phase_ != Phase::passed_out; }
    Seat declarer() const { return high_bidder_; }
    int bid() const { return high_bid_; }

    // ---- trump and play -------------------------------------------------------------
    bool trump_named() const { return phase_ == Phase::play || phase_ == Phase::scored; }
    Suit trump() const { return trump_; }
    /// Cards played so far, in order (the declarer's lead first).
    std::span<const Card> plays() const { return {plays_.data(), num_played_}; }
    int cards_played() const { return num_played_; }
    /// Who played the i-th card.
    Seat played_by(int i) const { return next(trick_leaders_[i / 4], i % 4); }
    /// Every card played so far.
    CardSet played() const { return played_; }
    /// The current trick's leader and its cards so far (0..3 of them; empty between tricks).
    Seat trick_leader() const { return trick_leaders_[num_played_ / 4]; }
    std::span<const Card> current_trick() const {
        return {plays_.data() + (num_played_ / 4) * 4, static_cast<std::size_t>(num_played_ % 4)};
    }
    /// Leader of trick t (0..12); trick t's winner leads trick t+1.
    Seat leader_of_trick(int t) const { return trick_leaders_[t]; }
    /// Tricks completed so far.
    int tricks_played() const { return num_played_ / 4; }
    /// Tricks won so far by a team.
    int tricks(Team t) const { return tricks_[index(t)]; }
    /// Seat currently winning the trick in progress (valid when current_trick() is not empty).
    Seat trick_winner() const { return winning_seat_; }

    // ---- outcome (phase scored) -----------------------------------------------------
    /// Declaring team took at least its bid.
    bool made() const { return made_; }
    /// Points for each team this round (rules.md, each preset's "Scoring"); 0 until scored.
    int points(Team t) const { return points_[index(t)]; }

    // ---- actions ----------------------------------------------------------------------
    /// The cards the seat to act may play (only in phase play).
    CardSet legal_cards() const;
    /// Every legal action for the seat to act; empty once over().
    ActionList legal_actions() const;
    /// ok if apply(a) would succeed, else the error it would return.
    ErrorCode check(Action a) const;
    /// Applies the action of the seat to act. On error nothing changes.
    ErrorCode apply(Action a);
    /// As apply(a), but first checks that `seat` is the seat to act (out_of_turn otherwise).
    ErrorCode apply(Seat seat, Action a);
    /// What the table does when the seat to act runs out of time (rules.md "Turn timer"):
    /// pass; the longest suit as trump; the weakest legal card. Precondition: !over().
    Action default_action() const;

    /// Same state in every field (used to check copies and redaction).
    friend bool operator==(const Round&, const Round&) = default;

private:
    friend class SeatView;
    /// Erases every hand but `keep`'s (current and as dealt): the basis of SeatView.
    void erase_hands_except(Seat keep);

    ErrorCode check_call(int value) const;
    ErrorCode check_play(Card c) const;
    void score();

    Rules rules_{};
    Hands hands_{};
    Hands dealt_{};
    CardSet played_{};
    std::array<std::uint8_t, kMaxCalls> calls_{};
    std::array<Card, 52> plays_{};
    std::array<Seat, 14> trick_leaders_{};
    std::array<std::int8_t, 2> points_{};
    std::array<std::uint8_t, 2> tricks_{};
    Phase phase_ = Phase::auction;
    Seat dealer_ = Seat::s0;
    Seat to_act_ = Seat::s1;
    Seat high_bidder_ = Seat::s0;
    Seat winning_seat_ = Seat::s0;
    Card winning_card_{};
    Suit trump_ = Suit::spades;
    std::uint8_t high_bid_ = 0;
    std::uint8_t num_calls_ = 0;
    std::uint8_t passes_in_row_ = 0;
    std::uint8_t num_played_ = 0;
    bool made_ = false;
};

/// A scored round's points for the declaring and the defending team.
struct RoundScore {
    bool made = false;
    int declarers = 0;
    int defenders = 0;
};
/// rules.md, each preset's "Scoring": made (tricks >= bid) scores the bid (levantine) or the
/// tricks won (classic) and the defenders nothing; set costs the bid and gives the defenders
/// one point per trick they took. `declarer_tricks` is 0..13.
RoundScore score_round(const Rules& rules, int bid, int declarer_tricks);

/// rules.md "Turn timer": the declarer's longest suit; ties by ranks from the top down, then
/// S > H > D > C.
Suit default_trump(CardSet hand);
/// rules.md "Turn timer": the weakest card of `legal` (when following suit, all legal cards
/// share the led suit): the lowest non-trump rank, ties C, D, H, S; the lowest trump if only
/// trumps are left.
Card weakest_card(CardSet legal, Suit trump);

}  // namespace tarneeb
