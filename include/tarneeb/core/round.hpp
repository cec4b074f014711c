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
#include <utility>

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
    Seat to_act() const { return state_.to_act; }

    /// Cards still held. dealt(): the hand as dealt.
    CardSet hand(Seat s) const { return state_.hands[s]; }
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
    std::span<const Card> plays() const { return {plays_.data(), state_.num_played}; }
    int cards_played() const { return state_.num_played; }
    /// Who played the i-th card.
    Seat played_by(int i) const { return next(trick_leaders_[i / 4], i % 4); }
    /// Every card played so far.
    CardSet played() const { return state_.played; }
    /// True when `s` has failed to follow `suit` when it was led, so it holds none of it
    /// (rules.md "Play": a seat that can follow suit must). Known to every seat.
    bool shown_void(Seat s, Suit suit) const { return (state_.voids >> (4 * index(s) + index(suit))) & 1; }
    /// The current trick's leader and its cards so far (0..3 of them; empty between tricks).
    Seat trick_leader() const { return trick_leaders_[state_.num_played / 4]; }
    std::span<const Card> current_trick() const {
        return {plays_.data() + (state_.num_played / 4) * 4, static_cast<std::size_t>(state_.num_played % 4)};
    }
    /// Leader of trick t (0..12); trick t's winner leads trick t+1.
    Seat leader_of_trick(int t) const { return trick_leaders_[static_cast<std::size_t>(t)]; }
    /// Trick t (0..tricks_played(); the last one is the trick in progress, maybe empty), once
    /// trump is named. Its winner() is the seat winning so far.
    Trick trick(int t) const;
    /// Winner of finished trick t (0..tricks_played() - 1), by Trick's rule (rules.md "Play").
    Seat trick_winner(int t) const { return trick_leaders_[static_cast<std::size_t>(t) + 1]; }
    /// Tricks completed so far.
    int tricks_played() const { return state_.num_played / 4; }
    /// Tricks won so far by a team.
    int tricks(Team t) const { return state_.tricks[t]; }

    // ---- outcome (phase scored) -----------------------------------------------------
    /// Declaring team took at least its bid.
    bool made() const { return made_; }
    /// Points for each team this round (rules.md, each preset's "Scoring"); 0 until scored.
    int points(Team t) const { return points_[t]; }

    // ---- actions ----------------------------------------------------------------------
    /// The cards the seat to act may play (only in phase play): rules.md "Play", follow the suit
    /// led if you can, otherwise any card.
    CardSet legal_cards() const {
        const CardSet hand = state_.hands[state_.to_act];
        const CardSet follow = state_.num_played % 4 == 0 ? CardSet() : hand.of(state_.led);
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
        const CardSet hand = state_.hands[keep], dealt = dealt_[keep];
        state_.hands = {};
        dealt_ = {};
        state_.hands[keep] = hand;
        dealt_[keep] = dealt;
    }

    /// rules.md each preset's "Auction": higher than the standing bid, or equal for the classic
    /// dealer, and at least min_bid (may exceed max_bid).
    int lowest_bid_value() const {
        const bool dealer_may_equal =
            rules_.auction == AuctionStyle::single_round_dealer_equals && state_.to_act == dealer_;
        const int above = dealer_may_equal ? high_bid_ : high_bid_ + 1;
        return above > rules_.min_bid ? above : rules_.min_bid;
    }
    ErrorCode check_call(int value) const;
    /// rules.md "Play": the card must be held, and follow the suit led if the hand can.
    ErrorCode check_play(Card c) const {
        if (c.bit() >= 64 || !CardSet::deck().contains(c)) return ErrorCode::bad_card;
        const CardSet hand = state_.hands[state_.to_act];
        if (!hand.contains(c)) return ErrorCode::card_not_held;
        if (state_.num_played % 4 != 0 && c.suit() != state_.led && !hand.of(state_.led).empty())
            return ErrorCode::must_follow_suit;
        return ErrorCode::ok;
    }
    /// The fields a played card changes (and the seat to act, which the auction moves too),
    /// together so that play_out can hold them in a local.
    struct PlayState {
        Hands hands{};
        CardSet played{};
        ByTeam<std::uint8_t> tricks{};
        std::uint16_t voids = 0;  ///< shown voids: bit 4 * seat + suit
        std::uint8_t num_played = 0;
        Seat to_act = Seat::s1;
        Seat winning_seat = Seat::s0;  ///< of the trick in progress (or the last one)
        Card winning_card{};
        Suit led = Suit::clubs;        ///< of the trick in progress (or the last one)
        friend bool operator==(const PlayState&, const PlayState&) = default;
    };
    /// Plays a legal card for the seat to act (apply's path): play_cards with one card, so
    /// that the card rule is written once.
    void play(Card c) { play_cards([c](CardSet) { return c; }, 1); }
    /// Plays up to `count` cards, each `choose(legal)` (see play_out): the one place where a
    /// card is played (rules.md "Play").
    template <class Choose>
    ErrorCode play_cards(Choose&& choose, int count);
    /// apply() for calls, trump and every action out of its phase.
    ErrorCode apply_other(Action a);
    void score();

    Rules rules_{};
    PlayState state_{};
    Hands dealt_{};
    std::array<std::uint8_t, kMaxCalls> calls_{};
    std::array<Card, 52> plays_{};
    std::array<Seat, 14> trick_leaders_{};
    ByTeam<std::int8_t> points_{};
    Phase phase_ = Phase::auction;
    Seat dealer_ = Seat::s0;
    Seat high_bidder_ = Seat::s0;
    Suit trump_ = Suit::spades;
    std::uint8_t high_bid_ = 0;
    std::uint8_t num_calls_ = 0;
    std::uint8_t passes_in_row_ = 0;
    bool made_ = false;
};

template <class Choose>
ErrorCode Round::play_out(Choose&& choose) {
    return play_cards(std::forward<Choose>(choose), 52);
}

template <class Choose>
ErrorCode Round::play_cards(Choose&& choose, int count) {
    if (phase_ != Phase::play) return ErrorCode::ok;
    // The state in locals (registers): stores into plays_ (bytes) would otherwise make the
    // compiler reload every byte-sized member after each card.
    Hands hands = state_.hands;
    int n = state_.num_played;
    Seat to_act = state_.to_act;
    Seat winning_seat = state_.winning_seat;
    Card winning = state_.winning_card;
    Suit led = state_.led;
    ByTeam<std::uint8_t> tricks = state_.tricks;
    std::uint32_t voids = state_.voids;
    const Suit trump = trump_;
    ErrorCode result = ErrorCode::ok;
    // One card by the seat to act (rules.md "Play"): it must be legal (else false, nothing
    // changed); a seat that does not follow the suit led shows a void; the trick's winner so
    // far is kept by Trick's rule (beats); at the trick's end its winner's team takes it and
    // the winner leads. `leading` and `ends_trick` are constants in the whole-trick loop below,
    // so the trick's shape costs no branch there.
    const auto step = [&](bool leading, bool ends_trick) {
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
        if (leading || beats(c, winning, led, trump)) {
            winning = c;
            winning_seat = to_act;
        }
        if (!ends_trick) {
            to_act = next(to_act);
            return true;
        }
        ++tricks[team_of(winning_seat)];
        to_act = winning_seat;  // the winner leads the next trick
        trick_leaders_[n / 4] = winning_seat;
        return true;
    };
    const int end = n + count < 52 ? n + count : 52;
    bool legal = true;
    while (legal && n < end && (n % 4 != 0 || end - n < 4)) legal = step(n % 4 == 0, n % 4 == 3);
    while (legal && end - n >= 4)
        legal = step(true, false) && step(false, false) && step(false, false) && step(false, true);
    while (legal && n < end) legal = step(n % 4 == 0, n % 4 == 3);
    for (Seat s : kSeats) state_.played |= state_.hands[s] - hands[s];
    state_.hands = hands;
    state_.num_played = static_cast<std::uint8_t>(n);
    state_.to_act = to_act;
    state_.winning_seat = winning_seat;
    state_.winning_card = winning;
    state_.led = led;
    state_.tricks = tricks;
    state_.voids = static_cast<std::uint16_t>(voids);
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
