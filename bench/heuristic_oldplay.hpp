// The heuristic's card play as it was before issue 29 (commit fbbb278), frozen for the
// benchmarks: `heuristic-oldplay` in bot_specs.hpp is today's heuristic auction and trump with
// this card play, so duplicate runs against `heuristic` hold the contracts equal and measure
// card play alone (docs/analysis.md "The heuristic's card play (issue 29)"). Not part of the
// library: nothing but the benchmarks may use it.
#pragma once

#include <algorithm>
#include <bit>
#include <optional>

#include "tarneeb/bots/bot.hpp"

namespace tarneeb::bots::oldplay {

namespace {

constexpr std::uint32_t bit_of(Rank r) { return 1u << index(r); }

int suit_length(CardSet set, Suit s) { return std::popcount(set.ranks(s)); }

/// No unseen card of its suit ranks higher.
bool is_master(Card c, CardSet unseen) { return (unseen.ranks(c.suit()) >> (index(c.rank()) + 1)) == 0; }

/// The lowest card of `set` (cards of one suit) that beats `w` (core's rule, rules.md "Play").
std::optional<Card> cheapest_beating(CardSet set, Card w, Suit led, Suit trump) {
    for (Card c : set)  // ascending ranks within a suit
        if (beats(c, w, led, trump)) return c;
    return std::nullopt;
}

/// Everything one decision needs, computed once from the view.
struct Decision {
    const SeatView& view;
    Seat me;
    CardSet hand;
    CardSet unseen;
    Suit trump;
    bool declaring;  ///< my team holds the contract

    explicit Decision(const SeatView& v)
        : view(v), me(v.seat()), hand(v.hand()), unseen(v.unseen()), trump(v.trump()),
          declaring(v.contract()->team() == team_of(v.seat())) {}

    bool is_opponent(Seat s) const { return team_of(s) != team_of(me); }

    /// `s` may still hold a trump as far as this seat knows.
    bool may_have_trump(Seat s) const { return !unseen.of(trump).empty() && !view.shown_void(s, trump); }

    /// `s` may hold a card of `suit` higher than `c` (not shown void, an unseen higher card).
    bool may_beat_in_suit(Seat s, Card c) const {
        return !view.shown_void(s, c.suit()) && !is_master(c, unseen);
    }

    /// `s` may ruff a trick led in `led` (led is not trump): it is void in it, or very likely
    /// is (at most one unseen card of it left), and may hold a trump.
    bool may_ruff(Seat s, Suit led) const {
        if (led == trump || !may_have_trump(s)) return false;
        return view.shown_void(s, led) || suit_length(unseen, led) <= 1;
    }

    /// Card `c` (which would be winning the trick) cannot be beaten by an opponent who plays
    /// after me in this trick. `after` = players still to play after me.
    bool safe(Card c, Suit led, int after) const {
        for (int i = 1; i <= after; ++i) {
            const Seat s = next(me, i);
            if (!is_opponent(s)) continue;
            if (c.suit() == trump) {
                if (may_beat_in_suit(s, c)) return false;
            } else {
                if (c.suit() == led && may_beat_in_suit(s, c)) return false;
                if (may_ruff(s, led)) return false;
            }
        }
        return true;
    }

    /// A discard: the lowest card of the shortest side suit that holds no master and whose
    /// loss unguards no king; trumps only when nothing else is left.
    Card discard() const {
        int best_key = 1 << 30;
        Card best{};
        bool found = false;
        for (Suit s : kSuits) {
            if (s == trump) continue;
            const CardSet cards = hand.of(s);
            if (cards.empty()) continue;
            const Card low = cards.lowest();
            const int len = cards.size();
            int key = len * 10 + index(low.rank());
            if (is_master(cards.highest(), unseen)) key += 200;       // keep winners
            const std::uint32_t r = cards.ranks(s);
            if ((r & bit_of(Rank::king)) && len == 2) key += 100;       // K x: keep the guard
            if ((r & bit_of(Rank::queen)) && len == 3) key += 50;       // Q x x
            if (key < best_key) {
                best_key = key;
                best = low;
                found = true;
            }
        }
        if (found) return best;
        return hand.of(trump).lowest();
    }

    Card lead() const;
    Card follow() const;
};

Card Decision::lead() const {
    const CardSet trumps = hand.of(trump);
    const CardSet unseen_trumps = unseen.of(trump);
    const Seat left = next(me, 3), right = next(me, 1), mate = partner(me);
    const bool opponents_trump = may_have_trump(left) || may_have_trump(right);

    // Draw trumps as the declaring team: with the master trump, or with more trumps than are out.
    if (declaring && opponents_trump && !trumps.empty()) {
        if (is_master(trumps.highest(), unseen)) return trumps.highest();
        if (trumps.size() > unseen_trumps.size() && trumps.size() >= 3) return trumps.lowest();
    }

    // Cash a side-suit master the opponents will follow to (or cannot ruff).
    {
        int best = -1;
        Card pick{};
        for (Suit s : kSuits) {
            if (s == trump) continue;
            const CardSet cards = hand.of(s);
            if (cards.empty()) continue;
            const Card top = cards.highest();
            if (!is_master(top, unseen)) continue;
            const int out = suit_length(unseen, s);
            bool ok = true;
            if (opponents_trump) {
                for (Seat o : {left, right})
                    if (may_have_trump(o) && (view.shown_void(o, s) || out <= 1)) ok = false;
            }
            if (!ok) continue;
            const int score = out * 4 + cards.size();
            if (score > best) {
                best = score;
                pick = top;
            }
        }
        if (best >= 0) return pick;
    }

    // Lead into the partner's void for a ruff (partner may still hold a trump).
    if (may_have_trump(mate) && !(declaring && opponents_trump)) {
        for (Suit s : kSuits) {
            if (s == trump || hand.of(s).empty()) continue;
            if (view.shown_void(mate, s)) return hand.of(s).lowest();
        }
    }

    // Otherwise: low from the best side suit (long, no lone honour to lose, not into a ruff).
    int best_key = -(1 << 30);
    Card pick{};
    bool found = false;
    for (Suit s : kSuits) {
        if (s == trump) continue;
        const CardSet cards = hand.of(s);
        if (cards.empty()) continue;
        const std::uint32_t r = cards.ranks(s);
        const int len = cards.size();
        int key = len * 10;
        const bool a = r & bit_of(Rank::ace), k = r & bit_of(Rank::king), q = r & bit_of(Rank::queen);
        if (k && !a) key -= 25;            // do not lead away from a king
        if (q && !k && !a && len <= 3) key -= 12;
        for (Seat o : {left, right})
            if (view.shown_void(o, s) && may_have_trump(o)) key -= 40;
        if (view.shown_void(mate, s) && may_have_trump(mate)) key += 15;
        if (key > best_key) {
            best_key = key;
            pick = cards.lowest();
            found = true;
        }
    }
    if (found) return pick;
    // Only trumps left.
    return is_master(trumps.highest(), unseen) ? trumps.highest() : trumps.lowest();
}

Card Decision::follow() const {
    const Trick trick = view.trick(view.tricks_played());
    const int k = trick.size();  // cards already played: 1..3
    const int after = 3 - k;
    const Suit led = trick.led();
    const Card w = trick.winning_card();
    const bool partner_winning = trick.winner() == partner(me);
    const CardSet follow_cards = hand.of(led);

    if (!follow_cards.empty()) {
        const Card low = follow_cards.lowest();
        if (partner_winning) {
            if (after == 0 || safe(w, led, after)) return low;
            // Third hand: partner's card may be beaten; take over only with a safe card.
            for (Card c : follow_cards)
                if (beats(c, w, led, trump) && safe(c, led, after)) return c;
            return low;
        }
        const auto win = cheapest_beating(follow_cards, w, led, trump);
        if (!win) return low;          // cannot win: lowest
        if (after == 0) return *win;   // fourth hand: win cheaply
        for (Card c : follow_cards)
            if (beats(c, w, led, trump) && safe(c, led, after)) {
                // The cheapest safe winner. Second hand plays low unless covering an honour or
                // the suit is short enough that the winner might be ruffed later.
                if (k == 1 && index(w.rank()) < index(Rank::ten) && suit_length(unseen, led) > 4) return low;
                return c;
            }
        // No safe winner.
        if (k == 1) return low;  // second hand low
        // Third hand high, unless the last player will surely ruff it.
        if (view.shown_void(next(me, 1), led) && may_have_trump(next(me, 1)) && led != trump) return low;
        return follow_cards.highest();
    }

    // Void in the suit led.
    const CardSet trumps = hand.of(trump);
    if (trumps.empty()) return discard();
    if (partner_winning) {
        if (after == 0 || safe(w, led, after)) return discard();
        for (Card c : trumps)
            if (beats(c, w, led, trump) && safe(c, led, after)) return c;
        return discard();
    }
    const auto over = cheapest_beating(trumps, w, led, trump);
    if (!over) return discard();  // cannot over-ruff
    if (after == 0) return *over;
    for (Card c : trumps)
        if (beats(c, w, led, trump) && safe(c, led, after)) return c;
    return *over;  // may be over-ruffed, but a trick not contested is lost for sure
}

}  // namespace

/// Card decisions only (calls and trump come from another bot through SplitBot).
class OldPlayBot final : public Bot {
public:
    std::string_view name() const override { return "heuristic-oldplay"; }
    Action decide_call(const SeatView& v) override { return v.default_action(); }
    Action decide_trump(const SeatView& v) override { return v.default_action(); }
    Action decide_card(const SeatView& view) override {
        const Decision t(view);
        return Action::play(view.current_trick().empty() ? t.lead() : t.follow());
    }
};

}  // namespace tarneeb::bots::oldplay
