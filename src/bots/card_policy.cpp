// The learned card policy (include/tarneeb/bots/card_policy.hpp). The feature order here is
// the one of tools/train_card_policy.py FEATURES: change both together and retrain.
#include "tarneeb/bots/card_policy.hpp"

#include <algorithm>
#include <optional>

#include "tarneeb/bots/holder_model.hpp"
#include "tarneeb/core/trick.hpp"

namespace tarneeb::bots {

namespace {

/// Cards of `set` in c's suit above c.
int above(CardSet set, Card c) {
    return static_cast<int>(std::popcount(set.ranks(c.suit()) >> (index(c.rank()) + 1)));
}

/// The cards of c's suit in `hand` that are equivalent to c: no unseen card between them.
CardSet equivalents(Card c, CardSet hand, CardSet unseen) {
    CardSet out = c;
    for (int r = index(c.rank()) + 1; r < 13; ++r) {
        const Card x(c.suit(), static_cast<Rank>(r));
        if (unseen.contains(x)) break;
        if (hand.contains(x)) out |= x;
    }
    for (int r = index(c.rank()) - 1; r >= 0; --r) {
        const Card x(c.suit(), static_cast<Rank>(r));
        if (unseen.contains(x)) break;
        if (hand.contains(x)) out |= x;
    }
    return out;
}

/// The cards of suit `s` in `hand` above every unseen card of the suit (sure winners if led).
int top_winners(CardSet hand, CardSet unseen, Suit s) {
    int n = 0;
    for (int r = 12; r >= 0; --r) {
        const Card x(s, static_cast<Rank>(r));
        if (hand.contains(x)) ++n;
        else if (unseen.contains(x)) break;
    }
    return n;
}

}  // namespace

CardFeatures::CardFeatures(const SeatView& view, Card heuristic) : legal_(view.legal_cards()) {
    const Seat me = view.seat(), mate = partner(me), left = next(me, 1), right = next(me, 3);
    const Suit trump = view.trump();
    const CardSet hand = view.hand(), unseen = view.unseen();
    const Trick trick = view.trick(view.tricks_played());
    const int k = trick.size();
    const Contract contract = *view.contract();
    const bool declaring = team_of(me) == contract.team();
    const int left_tricks = 13 - view.tricks_played();
    const int mine = view.tricks(team_of(me)), theirs = view.tricks(other(team_of(me)));
    const int need = declaring ? contract.bid - mine : contract.tricks_to_set() - mine;
    const int opp_need = declaring ? contract.tricks_to_set() - theirs : contract.bid - theirs;
    const int unseen_trumps = unseen.of(trump).size();
    auto may_trump = [&](Seat s) { return unseen_trumps > 0 && !view.shown_void(s, trump); };
    // Suits each seat led, and the first suit the partner led.
    std::array<std::array<bool, 4>, 4> led_by{};
    std::optional<Suit> mate_first;
    for (int t = 0; t < view.tricks_played(); ++t) {
        const Trick done = view.trick(t);
        led_by[static_cast<std::size_t>(index(done.leader()))][static_cast<std::size_t>(index(done.led()))] = true;
        if (done.leader() == mate && !mate_first) mate_first = done.led();
    }
    // Later players of this trick who are opponents.
    std::array<Seat, 2> later{};
    int n_later = 0;
    for (int i = k + 1; i < 4; ++i)
        if (const Seat s = next(me, i - k); team_of(s) != team_of(me)) later[static_cast<std::size_t>(n_later++)] = s;
    const HolderModel holders(view);
    int winners = 0;
    for (Suit s : kSuits) winners += top_winners(hand, unseen, s);
    // The trumps each other seat is expected to hold (the holder model).
    std::array<float, 3> trumps_held{};
    for (Card x : unseen.of(trump))
        for (int j = 0; j < 3; ++j) trumps_held[static_cast<std::size_t>(j)] += static_cast<float>(holders.p(x, next(me, 1 + j)));
    // Per suit and other seat (left, right, partner), from the holder model: the chance that the
    // seat holds none of the suit's unseen cards, and that it holds the highest unseen one.
    std::array<std::array<float, 3>, 4> p_void{}, p_top{};
    for (Suit s : kSuits) {
        const CardSet out = unseen.of(s);
        for (int j = 0; j < 3; ++j) {
            const Seat o = j == 0 ? left : j == 1 ? right : mate;
            float none = 1.0f;
            for (Card x : out) none *= 1.0f - static_cast<float>(holders.p(x, o));
            p_void[static_cast<std::size_t>(index(s))][static_cast<std::size_t>(j)] = none;
            if (!out.empty()) p_top[static_cast<std::size_t>(index(s))][static_cast<std::size_t>(j)] = static_cast<float>(holders.p(out.highest(), o));
        }
    }
    const Card w = k > 0 ? trick.winning_card() : Card{};
    const bool partner_winning = k > 0 && trick.winner() == mate;
    // The partner's card cannot be beaten by the opponents still to play.
    bool partner_safe = partner_winning;
    for (int j = 0; partner_winning && j < n_later; ++j) {
        const Seat o = later[static_cast<std::size_t>(j)];
        const Suit led = trick.led();
        if (w.suit() == led && !view.shown_void(o, led) && above(unseen, w) > 0) partner_safe = false;
        if (view.shown_void(o, led) && may_trump(o) && (w.suit() != trump || above(unseen, w) > 0)) partner_safe = false;
    }
    const std::optional<Card> cheapest = [&]() -> std::optional<Card> {
        if (k == 0) return std::nullopt;
        for (Card c : legal_.of(trick.led()))  // following: the suit led, lowest first
            if (beats(c, w, trick.led(), trump)) return c;
        if (!legal_.of(trick.led()).empty()) return std::nullopt;
        for (Card c : legal_.of(trump))
            if (beats(c, w, trick.led(), trump)) return c;
        return std::nullopt;
    }();

    int i = 0;
    for (Card c : legal_) {
        auto& f = rows_[static_cast<std::size_t>(i++)];
        const Suit su = c.suit();
        const bool follows = k > 0 && su == trick.led();
        const bool wins = k > 0 && beats(c, w, trick.led(), trump);
        const int higher = above(unseen, c);
        const CardSet same = equivalents(c, hand, unseen);
        // 0-14: the position.
        f[0] = k == 0;
        f[1] = k == 1;
        f[2] = k == 2;
        f[3] = k == 3;
        f[4] = declaring;
        f[5] = static_cast<float>(std::max(need, 0)) / static_cast<float>(left_tricks);
        f[6] = static_cast<float>(std::max(opp_need, 0)) / static_cast<float>(left_tricks);
        f[7] = static_cast<float>(view.tricks_played()) / 12.0f;
        f[8] = static_cast<float>(unseen_trumps) / 13.0f;
        f[9] = static_cast<float>(hand.of(trump).size()) / 13.0f;
        f[10] = partner_winning;
        f[11] = k > 0 ? static_cast<float>(index(w.rank())) / 12.0f : 0.0f;
        f[12] = k > 0 && w.suit() == trump;
        f[13] = view.rules().scoring == ScoringStyle::tricks_won;
        f[14] = static_cast<float>(contract.bid - 7) / 6.0f;
        // 15-41: the card.
        f[15] = c == heuristic;
        f[16] = static_cast<float>(index(c.rank())) / 12.0f;
        f[17] = su == trump;
        f[18] = follows;
        f[19] = k > 0 && !follows && su == trump;
        f[20] = k > 0 && !follows && su != trump;
        f[21] = wins;
        f[22] = cheapest && *cheapest == c;
        f[23] = partner_winning && wins;
        f[24] = static_cast<float>(higher) / 13.0f;
        f[25] = higher == 0;
        f[26] = higher == 1;
        f[27] = static_cast<float>(hand.of(su).size()) / 13.0f;
        f[28] = static_cast<float>(above(hand, c)) / 13.0f;
        f[29] = static_cast<float>(unseen.of(su).size()) / 13.0f;
        f[30] = same.lowest() == c;
        f[31] = same.size() > 1 && same.highest() == c;
        f[32] = legal_.lowest() == c;
        f[33] = legal_.highest() == c;
        // A later opponent may take the trick from c (if c wins it so far, or leads): a higher
        // card of its suit while the opponent may follow, or a trump while it is void.
        int beaters = 0, ruffers = 0;
        if (k == 0 || wins)
            for (int j = 0; j < n_later; ++j) {
                const Seat o = later[static_cast<std::size_t>(j)];
                const Suit asked = k == 0 ? su : trick.led();
                const bool void_asked = view.shown_void(o, asked);
                const bool trumps_over = su == trump ? above(unseen, c) > 0 : unseen_trumps > 0;
                if ((!void_asked && su == asked && higher > 0) || (void_asked && asked != trump && may_trump(o) && trumps_over)) ++beaters;
                if (asked != trump && void_asked && may_trump(o)) ++ruffers;
            }
        f[34] = static_cast<float>(beaters) / 2.0f;
        f[35] = static_cast<float>(ruffers) / 2.0f;
        f[36] = su != trump && view.shown_void(mate, su) && may_trump(mate);
        f[37] = mate_first && *mate_first == su;
        f[38] = led_by[static_cast<std::size_t>(index(left))][static_cast<std::size_t>(index(su))] ||
                led_by[static_cast<std::size_t>(index(right))][static_cast<std::size_t>(index(su))];
        f[39] = led_by[static_cast<std::size_t>(index(me))][static_cast<std::size_t>(index(su))];
        bool guard_left = false;  // leading away from a card one below the top unseen one
        if (k == 0)
            for (Card x : hand.of(su))
                if (x != c && above(unseen, x) == 1) guard_left = true;
        f[40] = guard_left;
        f[41] = hand.of(su).size() == 1;
        // 42-47: the holder model: the chance that each other seat holds a card above c in its
        // suit, and the cards of the suit it is expected to hold.
        std::array<Seat, 3> others{left, right, mate};
        for (int j = 0; j < 3; ++j) {
            const Seat o = others[static_cast<std::size_t>(j)];
            float none = 1.0f, length = 0.0f;
            for (Card x : unseen.of(su)) {
                const float p = static_cast<float>(holders.p(x, o));
                length += p;
                if (x.rank() > c.rank()) none *= 1.0f - p;
            }
            f[static_cast<std::size_t>(42 + j)] = 1.0f - none;
            f[static_cast<std::size_t>(45 + j)] = length / 6.0f;
        }
        // 48-53: sure winners, the trumps out, the partner's card safe.
        f[48] = static_cast<float>(top_winners(hand, unseen, su)) / 13.0f;
        f[49] = static_cast<float>(winners) / 13.0f;
        f[50] = trumps_held[0] / 6.0f;  // left
        f[51] = trumps_held[2] / 6.0f;  // right
        f[52] = trumps_held[1] / 6.0f;  // partner
        f[53] = partner_safe;
        // 54-63: for leads and the rest: voids and the top unseen card of c's suit by seat, the
        // cards equivalent to c, a lead giving a ruff and discard, c the lowest / highest held.
        const auto suit_index = static_cast<std::size_t>(index(su));
        for (std::size_t j = 0; j < 3; ++j) {
            f[54 + j] = p_void[suit_index][j];
            f[57 + j] = p_top[suit_index][j];
        }
        f[60] = static_cast<float>(same.size()) / 13.0f;
        f[61] = k == 0 && su != trump && view.shown_void(left, su) && view.shown_void(right, su) && (may_trump(left) || may_trump(right));
        f[62] = hand.of(su).lowest() == c;
        f[63] = hand.of(su).highest() == c;
    }
}

float card_score(const CardPolicyWeights& w, std::span<const float, kCardFeatures> x) {
    float score = 0.0f;
    for (int i = 0; i < kCardFeatures; ++i) score += w.linear[static_cast<std::size_t>(i)] * x[static_cast<std::size_t>(i)];
    for (int h = 0; h < kPolicyHidden; ++h) {
        const float* row = w.w1.data() + static_cast<std::size_t>(h) * kCardFeatures;
        float a = w.b1[static_cast<std::size_t>(h)];
        for (int i = 0; i < kCardFeatures; ++i) a += row[i] * x[static_cast<std::size_t>(i)];
        if (a > 0.0f) score += w.w2[static_cast<std::size_t>(h)] * a;
    }
    return score;
}

float card_score(std::span<const CardPolicyWeights> nets, std::span<const float, kCardFeatures> x) {
    float sum = 0.0f;
    for (const CardPolicyWeights& w : nets) sum += card_score(w, x);
    return sum / static_cast<float>(nets.size());
}

Card policy_card(const SeatView& view, Card heuristic, std::span<const CardPolicyWeights> nets, float margin) {
    const CardSet legal = view.legal_cards();
    if (legal.size() == 1) return legal.lowest();
    const CardFeatures features(view, heuristic);
    float best = 0.0f, mine = 0.0f;
    Card pick = heuristic;
    int i = 0;
    for (Card c : legal) {
        const float s = card_score(nets, features.of(i++));
        if (c == heuristic) mine = s;
        if (i == 1 || s > best) {
            best = s;
            pick = c;
        }
    }
    return best > mine + margin ? pick : heuristic;
}

}  // namespace tarneeb::bots
