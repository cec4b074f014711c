// One round (deal) of Tarneeb: auction → trump → 13 tricks → score (docs/rules.md).
//
// A Round is a trivially copyable value (about 300 bytes, no heap): bots copy it freely to
// look ahead, and a copy behaves exactly like the original. Every change goes through
// apply(), which either succeeds or returns an ErrorCode and leaves the round untouched.
// Playing a card (the path random play and look-ahead take 52 times a round) is inline here;
// the auction, trump and errors are in round.cpp.
//
// Actions (one byte of kind, one of value):
//   call  value 0 = pass, 7..13 = bid (tricks for the team)
//   trump value = Suit
//   play  value = Card::bit()
// Phases: auction → trump → play → scored, or auction → passed_out (all four passed).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "tarneeb/core/cards.hpp"
#include "tarneeb/core/error.hpp"
#include "tarneeb/core/rules.hpp"
#include "tarneeb/core/trick.hpp"

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

/// The contract once the auction closes with a bid (rules.md "Common to both presets"): the
/// declarer (the highest bidder, who names trump and leads first), the bid (tricks the
/// declaring team undertakes, 7..13) and the trump suit once named.
struct Contract {
    Seat declarer = Seat::s0;
    int bid = 0;
    std::optional<Suit> trump;

    /// The declaring team.
    constexpr Team team() const { return team_of(declarer); }
    /// rules.md each preset's "Scoring": the tricks the defenders need to set the contract
    /// (14 - bid).
    constexpr int tricks_to_set() const { return 14 - bid; }
    friend constexpr bool operator==(const Contract&, const Contract&) = default;
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
    CardSet hand(Seat s) const { return hands_[s]; }
    CardSet dealt(Seat s) const { return dealt_[s]; }
    const Hands& dealt_hands() const { return dealt_; }

    // ---- auction --------------------------------------------------------------------
    /// Calls so far in turn order from the player after the dealer (0 = pass, else the bid).
    std::span<const std::uint8_t> calls() const { return {calls_.data(), num_calls_}; }
    /// Standing high bid during the auction (0 if none); once it closes, see contract().
    int high_bid() const { return high_bid_; }
    /// Seat of the standing high bid; meaningful when high_bid() > 0.
    Seat high_bidder() const { return high_bidder_; }
    /// rules.md each preset's "Auction": the lowest bid the seat to act may make, higher than
    /// the standing high bid (or equal to it for the classic preset's dealer) and at least
    /// rules().min_bid. nullopt outside the auction or when no bid is left (only a pass).
    std::optional<int> lowest_bid() const {
        const int low = lowest_bid_value();
        if (phase_ != Phase::auction || low > rules_.max_bid) return std::nullopt;
        return low;
    }
    /// True once the auction closed with a contract.
    bool has_contract() const { return phase_ != Phase::auction && phase_ != Phase::passed_out; }
    /// The contract once has_contract(), else nullopt.
    std::optional<Contract> contract() const {
        if (!has_contract()) return std::nullopt;
        return Contract{high_bidder_, high_bid_, trump_named() ? std::optional<Suit>(trump_) : std::nullopt};
    }

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
    /// True when `s` has failed to follow `suit` when it was led, so it holds none of it
    /// (rules.md "Play": a seat that can follow suit must). Known to every seat.
    bool shown_void(Seat s, Suit suit) const { return (voids_ >> (4 * index(s) + index(suit))) & 1; }
    /// The current trick's leader and its cards so far (0..3 of them; empty between tricks).
    Seat trick_leader() const { return trick_leaders_[num_played_ / 4]; }
    std::span<const Card> current_trick() const {
        return {plays_.data() + (num_played_ / 4) * 4, static_cast<std::size_t>(num_played_ % 4)};
    }
    /// Leader of trick t (0..12); trick t's winner leads trick t+1.
    Seat leader_of_trick(int t) const { return trick_leaders_[static_cast<std::size_t>(t)]; }
    /// Trick t (0..tricks_played(); the last one is the trick in progress, maybe empty), once
    /// trump is named. Its winner() is the seat winning so far.
    Trick trick(int t) const;
    /// Winner of finished trick t (0..tricks_played() - 1), by Trick's rule (rules.md "Play").
    Seat trick_winner(int t) const { return trick_leaders_[static_cast<std::size_t>(t) + 1]; }
    /// Tricks completed so far.
    int tricks_played() const { return num_played_ / 4; }
    /// Tricks won so far by a team.
    int tricks(Team t) const { return tricks_[t]; }

    // ---- outcome (phase scored) -----------------------------------------------------
    /// Declaring team took at least its bid.
    bool made() const { return made_; }
    /// Points for each team this round (rules.md, each preset's "Scoring"); 0 until scored.
    int points(Team t) const { return points_[t]; }

    // ---- actions ----------------------------------------------------------------------
    /// The cards the seat to act may play (only in phase play): rules.md "Play", follow the suit
    /// led if you can, otherwise any card.
    CardSet legal_cards() const {
        const CardSet hand = hands_[to_act_];
        const Card lead = plays_[num_played_ & ~3];  // this trick's lead, or a stale card
        const CardSet follow = num_played_ % 4 == 0 ? CardSet() : hand.of(lead.suit());
        return follow.empty() ? hand : follow;
    }
    /// Every legal action for the seat to act; empty once over().
    ActionList legal_actions() const;
    /// ok if apply(a) would succeed, else the error it would return.
    ErrorCode check(Action a) const;
    /// Applies the action of the seat to act. On error nothing changes.
    ErrorCode apply(Action a) {
        if (a.kind == ActionKind::play && phase_ == Phase::play) {  // the hot path: one check
            if (const ErrorCode e = check_play(a.card()); e != ErrorCode::ok) return e;
            play(a.card());
            return ErrorCode::ok;
        }
        return apply_other(a);
    }
    /// Plays the rest of the round's cards (phase play; does nothing otherwise): for each card,
    /// `choose(legal)` is given legal_cards() of the seat to act (a CardSet, never empty) and
    /// returns the Card to play, which is then played exactly as apply(Action::play(card))
    /// would. The loop keeps the round's hot fields in locals, which is why random play-outs
    /// (play_random_round, look-ahead) use it rather than 52 calls of apply.
    /// Returns ok once the round is scored; if `choose` returns a card that is not legal,
    /// stops before it, with the round as it was after the last legal card, and returns the
    /// error apply would (card_not_held, must_follow_suit, bad_card).
    template <class Choose>
    ErrorCode play_out(Choose&& choose);
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
    void erase_hands_except(Seat keep) {
        const CardSet hand = hands_[keep], dealt = dealt_[keep];
        hands_ = {};
        dealt_ = {};
        hands_[keep] = hand;
        dealt_[keep] = dealt;
    }

    /// rules.md each preset's "Auction": higher than the standing bid, or equal for the classic
    /// dealer, and at least min_bid (may exceed max_bid).
    int lowest_bid_value() const {
        const bool dealer_may_equal =
            rules_.auction == AuctionStyle::single_round_dealer_equals && to_act_ == dealer_;
        const int above = dealer_may_equal ? high_bid_ : high_bid_ + 1;
        return above > rules_.min_bid ? above : rules_.min_bid;
    }
    ErrorCode check_call(int value) const;
    /// rules.md "Play": the card must be held, and follow the suit led if the hand can.
    ErrorCode check_play(Card c) const {
        if (c.bit() >= 64 || !CardSet::deck().contains(c)) return ErrorCode::bad_card;
        const CardSet hand = hands_[to_act_];
        if (!hand.contains(c)) return ErrorCode::card_not_held;
        if (num_played_ % 4 != 0) {
            const Suit led = plays_[num_played_ & ~3].suit();
            if (c.suit() != led && !hand.of(led).empty()) return ErrorCode::must_follow_suit;
        }
        return ErrorCode::ok;
    }
    /// Plays a legal card for the seat to act.
    void play(Card c) {
        const bool leading = num_played_ % 4 == 0;
        hands_[to_act_] -= c;
        played_ |= c;
        plays_[num_played_++] = c;
        const Suit led = plays_[(num_played_ - 1) & ~3].suit();
        voids_ |= static_cast<std::uint16_t>((c.suit() != led) << (4 * index(to_act_) + index(led)));
        // rules.md "Play": who takes the trick is Trick's rule (beats), applied card by card.
        if (leading || beats(c, winning_card_, led, trump_)) {
            winning_card_ = c;
            winning_seat_ = to_act_;
        }
        if (num_played_ % 4 != 0) {
            to_act_ = next(to_act_);
            return;
        }
        ++tricks_[team_of(winning_seat_)];
        to_act_ = winning_seat_;  // the winner leads the next trick
        trick_leaders_[num_played_ / 4] = winning_seat_;
        if (num_played_ == 52) score();
    }
    /// apply() for calls, trump and every action out of its phase.
    ErrorCode apply_other(Action a);
    void score();

    Rules rules_{};
    Hands hands_{};
    Hands dealt_{};
    CardSet played_{};
    std::array<std::uint8_t, kMaxCalls> calls_{};
    std::array<Card, 52> plays_{};
    std::array<Seat, 14> trick_leaders_{};
    ByTeam<std::int8_t> points_{};
    ByTeam<std::uint8_t> tricks_{};
    std::uint16_t voids_ = 0;  ///< shown voids: bit 4 * seat + suit
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

template <class Choose>
ErrorCode Round::play_out(Choose&& choose) {
    if (phase_ != Phase::play) return ErrorCode::ok;
    // The hot fields in locals: stores into plays_ (bytes) would otherwise make the compiler
    // reload every byte-sized member after each card.
    Hands hands = hands_;
    int n = num_played_;
    Seat to_act = to_act_;
    Seat winning_seat = winning_seat_;
    Card winning = winning_card_;
    Suit led = plays_[n & ~3].suit();
    ByTeam<std::uint8_t> tricks = tricks_;
    std::uint32_t voids = voids_;
    const Suit trump = trump_;
    ErrorCode result = ErrorCode::ok;
    // One card by the seat to act, as play() does; false (nothing changed) if choose's card
    // is not legal. `leading` is a constant at each call, so the trick's shape costs no branch.
    const auto step = [&](bool leading) {
        const CardSet hand = hands[to_act];
        const CardSet follow = leading ? CardSet() : hand.of(led);
        const CardSet legal = follow.empty() ? hand : follow;
        const Card c = choose(legal);
        if (!legal.contains(c)) {
            result = c.bit() >= 64 || !CardSet::deck().contains(c) ? ErrorCode::bad_card
                     : !hand.contains(c)                          ? ErrorCode::card_not_held
                                                                  : ErrorCode::must_follow_suit;
            return false;
        }
        hands[to_act] -= c;
        plays_[n++] = c;
        if (leading) led = c.suit();
        voids |= std::uint32_t{c.suit() != led} << (4 * index(to_act) + index(led));
        // rules.md "Play": who takes the trick is Trick's rule (beats), applied card by card.
        if (leading || beats(c, winning, led, trump)) {
            winning = c;
            winning_seat = to_act;
        }
        to_act = next(to_act);
        return true;
    };
    const auto end_trick = [&] {
        ++tricks[team_of(winning_seat)];
        to_act = winning_seat;  // the winner leads the next trick
        trick_leaders_[n / 4] = winning_seat;
    };
    bool legal = true;
    if (n % 4 != 0) {  // the trick in progress
        while (legal && n % 4 != 0) legal = step(false);
        if (legal) end_trick();
    }
    while (legal && n < 52) {
        legal = step(true) && step(false) && step(false) && step(false);
        if (legal) end_trick();
    }
    for (Seat s : kSeats) played_ |= hands_[s] - hands[s];
    hands_ = hands;
    num_played_ = static_cast<std::uint8_t>(n);
    to_act_ = to_act;
    winning_seat_ = winning_seat;
    winning_card_ = winning;
    tricks_ = tricks;
    voids_ = static_cast<std::uint16_t>(voids);
    if (n == 52) score();
    return result;
}

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
