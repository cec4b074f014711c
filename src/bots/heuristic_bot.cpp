// The heuristic bot (see include/tarneeb/bots/heuristic_bot.hpp for what it does and why).
//
// Vocabulary used below: a card is a "master" when no card this seat has not seen ranks
// higher in its suit (so only a trump can beat it); a winning card is "safe" when none of the
// players still to play this trick can beat it (by rank or by ruffing), as far as this seat
// can tell from the cards played and the voids shown. Each card decision returns through
// chose(card, label): the label names the rule (CardChoice::rule, bench/card_costs).
#include "tarneeb/bots/heuristic_bot.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>

#include "tarneeb/bots/auction_read.hpp"
#include "tarneeb/bots/bid_model.hpp"

namespace tarneeb::bots {

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

/// An unseen card of `w`'s suit ranks above `w` and below `c` (same suit).
bool unseen_between(Card w, Card c, CardSet unseen) {
    const std::uint32_t out = unseen.ranks(c.suit());
    const int lo = index(w.rank()), hi = index(c.rank());
    if (hi <= lo + 1) return false;
    const std::uint32_t mask = ((1u << hi) - 1) & ~((2u << lo) - 1);
    return (out & mask) != 0;
}

/// Everything one decision needs, computed once from the view.
struct Decision {
    const SeatView& view;
    Seat me;
    CardSet hand;
    CardSet unseen;
    Suit trump;
    bool declaring;  ///< my team holds the contract
    unsigned rules;  ///< CardRule bits
    int draw_len, draw_slack, void_guess, cash_guess;  ///< HeuristicParams
    mutable const char* why = "";  ///< the rule that chose the card (CardChoice::rule)

    /// Returns `c`, noting the rule that chose it.
    Card chose(Card c, const char* rule) const {
        why = rule;
        return c;
    }

    Decision(const SeatView& v, const HeuristicParams& p)
        : view(v), me(v.seat()), hand(v.hand()), unseen(v.unseen()), trump(v.trump()),
          declaring(v.contract()->team() == team_of(v.seat())), rules(p.card_rules), draw_len(p.draw_len),
          draw_slack(p.draw_slack), void_guess(p.void_guess), cash_guess(p.cash_guess) {}

    bool on(CardRule r) const { return (rules & r) != 0; }

    /// The first suit (other than trump) `s` led in this round, if any, by plays' order.
    std::optional<Suit> first_lead_by(Seat s) const {
        const auto plays = view.plays();
        for (std::size_t i = 0; i < plays.size(); i += 4)
            if (view.played_by(static_cast<int>(i)) == s && plays[i].suit() != trump) return plays[i].suit();
        return std::nullopt;
    }

    bool is_opponent(Seat s) const { return team_of(s) != team_of(me); }

    /// `s` may still hold a trump as far as this seat knows.
    bool may_have_trump(Seat s) const { return !unseen.of(trump).empty() && !view.shown_void(s, trump); }

    /// `s` may hold a card of `suit` higher than `c` (not shown void, an unseen higher card).
    bool may_beat_in_suit(Seat s, Card c) const {
        return !view.shown_void(s, c.suit()) && !is_master(c, unseen);
    }

    /// `s` may ruff a trick led in `led` (led is not trump): it has shown the void (or at most
    /// `void_guess` cards of the suit are unseen) and may hold a trump.
    bool may_ruff(Seat s, Suit led) const {
        if (led == trump || !may_have_trump(s)) return false;
        return view.shown_void(s, led) || suit_length(unseen, led) <= void_guess;
    }

    /// Card `c` (which would be winning the trick) cannot be beaten by an opponent who plays
    /// after me in this trick. `after` = players still to play after me.
    bool safe(Card c, Suit led, int after) const {
        for (int i = 1; i <= after; ++i) {
            const Seat s = next(me, i);
            if (!is_opponent(s)) continue;
            if (c.suit() == trump) {
                // A player who must follow the suit led cannot over-ruff.
                if (on(kRuffSafety) && led != trump && !may_ruff(s, led)) continue;
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

    // Draw trumps as the declaring team: with the master trump, or with length: at least
    // draw_len trumps and more than (unseen trumps - draw_slack), as the partner holds a share.
    if (declaring && opponents_trump && !trumps.empty()) {
        if (is_master(trumps.highest(), unseen)) return chose(trumps.highest(), "lead: draw trumps (master)");
        if (trumps.size() + draw_slack > unseen_trumps.size() && trumps.size() >= draw_len) {
            // From a sequence (K Q, J T 9) its top: it drives out the higher trump or wins.
            const Card top = trumps.highest();
            if (on(kTrumpSequence) && view.equivalents(top).lowest() != top)
                return chose(top, "lead: draw trumps (sequence)");
            return chose(trumps.lowest(), "lead: draw trumps (length)");
        }
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
                    if (may_have_trump(o) && (view.shown_void(o, s) || out <= cash_guess)) ok = false;
            }
            if (!ok) continue;
            const int score = out * 4 + cards.size();
            if (score > best) {
                best = score;
                pick = top;
            }
        }
        if (best >= 0) return chose(pick, "lead: cash master");
    }

    // Lead into the partner's void for a ruff (partner may still hold a trump).
    if (may_have_trump(mate) && !(declaring && opponents_trump)) {
        for (Suit s : kSuits) {
            if (s == trump || hand.of(s).empty()) continue;
            if (view.shown_void(mate, s)) return chose(hand.of(s).lowest(), "lead: partner void");
        }
    }

    // Return the suit the partner led first (top of a doubleton, else low), unless an
    // opponent would ruff it.
    if (on(kReturnPartner)) {
        if (const auto s = first_lead_by(mate); s && !hand.of(*s).empty()) {
            bool ruffed = false;
            for (Seat o : {left, right})
                if (view.shown_void(o, *s) && may_have_trump(o)) ruffed = true;
            if (!ruffed) {
                const CardSet cards = hand.of(*s);
                return chose((cards.size() <= 2 ? cards.highest() : cards.lowest()), "lead: return partner suit");
            }
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
        Card lead_card = cards.lowest();
        if (on(kSequenceLead)) {
            // The top of a sequence (K Q, Q J, 8 7: no unseen card between): it drives out the
            // higher cards and sets up the next.
            const Card top = cards.highest();
            if (view.equivalents(top).lowest() != top) {
                lead_card = top;
                key += 20;
            }
        }
        if (key > best_key) {
            best_key = key;
            pick = lead_card;
            found = true;
        }
    }
    if (found) return chose(pick, "lead: side suit");
    // Only trumps left.
    return chose((is_master(trumps.highest(), unseen) ? trumps.highest() : trumps.lowest()), "lead: only trumps");
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
            if (after == 0 || safe(w, led, after)) return chose(low, "follow: partner wins, low");
            // Third hand: partner's card may be beaten; take over only with a safe card.
            for (Card c : follow_cards)
                if (beats(c, w, led, trump) && safe(c, led, after)) return chose(c, "follow: overtake partner safe");
            if (on(kThirdOverPartner) && after == 1) {
                // Third hand high over the partner's card when the last player may hold a card
                // between the two (and will not ruff it anyway).
                const Card top = follow_cards.highest();
                const Seat last = next(me, 1);
                const bool ruffs = led != trump && view.shown_void(last, led) && may_have_trump(last);
                if (beats(top, w, led, trump) && !ruffs && unseen_between(w, top, unseen))
                    return chose(top, "follow: third over partner");
            }
            return chose(low, "follow: partner wins unsafe, low");
        }
        const auto win = cheapest_beating(follow_cards, w, led, trump);
        if (!win) return chose(low, "follow: cannot win");          // cannot win: lowest
        if (after == 0) return chose(*win, "follow: fourth wins cheap");   // fourth hand: win cheaply
        for (Card c : follow_cards)
            if (beats(c, w, led, trump) && safe(c, led, after)) {
                // The cheapest safe winner. Second hand plays low unless covering an honour or
                // the suit is short enough that the winner might be ruffed later.
                if (k == 1 && index(w.rank()) < index(Rank::ten) && suit_length(unseen, led) > 4)
                    return chose(low, "follow: second low (long)");
                return chose(c, "follow: safe winner");
            }
        // No safe winner.
        if (k == 1) return chose(low, "follow: second hand low");
        // Third hand high, unless the last player will surely ruff it.
        if (view.shown_void(next(me, 1), led) && may_have_trump(next(me, 1)) && led != trump)
            return chose(low, "follow: third low, last ruffs");
        return chose(follow_cards.highest(), "follow: third high");
    }

    // Void in the suit led.
    const CardSet trumps = hand.of(trump);
    if (trumps.empty()) return chose(discard(), "void: no trumps, discard");
    if (partner_winning) {
        if (after == 0 || safe(w, led, after)) return chose(discard(), "void: partner wins, discard");
        for (Card c : trumps)
            if (beats(c, w, led, trump) && safe(c, led, after)) return chose(c, "void: ruff over partner safe");
        return chose(discard(), "void: partner unsafe, discard");
    }
    const auto over = cheapest_beating(trumps, w, led, trump);
    if (!over) return chose(discard(), "void: cannot overruff, discard");  // cannot over-ruff
    if (after == 0) return chose(*over, "void: fourth ruff");
    // Second hand: the partner plays after the last opponent. Behind a lead the partner may
    // still beat, discard rather than spend a trump; when ruffing, keep the master trump.
    if (k == 1 && on(kSecondWait) && w.suit() == led && !is_master(w, unseen) && !view.shown_void(partner(me), led))
        return chose(discard(), "void: second waits for partner");
    if (k == 1 && on(kSecondNoMaster) && trumps.size() > 1) {
        for (Card c : trumps)
            if (beats(c, w, led, trump) && !is_master(c, unseen) && safe(c, led, after))
                return chose(c, "void: safe ruff");
        for (Card c : trumps)
            if (beats(c, w, led, trump) && !is_master(c, unseen)) return chose(c, "void: second ruffs low");
    }
    for (Card c : trumps)
        if (beats(c, w, led, trump) && safe(c, led, after)) return chose(c, "void: safe ruff");
    return chose(*over, "void: unsafe ruff");  // may be over-ruffed, but a trick not contested is lost for sure
}

}  // namespace

double estimate_tricks(CardSet hand, Suit trump) {
    const std::uint32_t tr = hand.ranks(trump);
    const int lt = std::popcount(tr);
    double trump_part = 0;
    if (tr & bit_of(Rank::ace)) trump_part += 1;
    if (tr & bit_of(Rank::king)) trump_part += lt >= 2 ? 0.9 : 0.3;
    if (tr & bit_of(Rank::queen)) trump_part += lt >= 3 ? 0.7 : 0.2;
    if (tr & bit_of(Rank::jack)) trump_part += lt >= 4 ? 0.4 : 0.0;
    trump_part += std::max(0, lt - 3) * 0.9;
    double side = 0, ruff_potential = 0;
    for (Suit s : kSuits) {
        if (s == trump) continue;
        const std::uint32_t r = hand.ranks(s);
        const int len = std::popcount(r);
        const bool a = r & bit_of(Rank::ace), k = r & bit_of(Rank::king), q = r & bit_of(Rank::queen);
        double t = 0;
        if (a) t += 1;
        if (k) t += a ? 0.9 : (len >= 2 ? 0.5 : 0.1);
        if (q) t += (a && k) ? 0.6 : ((a || k) && len >= 3) ? 0.35 : (len >= 3 ? 0.15 : 0.0);
        t = std::min(t, static_cast<double>(std::min(len, 3)));
        if (len >= 5 && lt >= 3) t += (len - 4) * 0.3;  // long side suit, set up once trumps are out
        side += t;
        ruff_potential += len == 0 ? 1.2 : len == 1 ? 0.8 : len == 2 ? 0.3 : 0.0;
    }
    const double ruffs = std::min(ruff_potential, std::max(0, lt - 2) * 0.8);
    return side + std::min(static_cast<double>(lt), trump_part + ruffs);
}

Suit best_trump(CardSet hand) {
    Suit best = Suit::clubs;
    double best_value = -1;
    int best_len = -1;
    const Suit fallback = default_trump(hand);
    for (Suit s : kSuits) {
        const double v = estimate_tricks(hand, s);
        const int len = suit_length(hand, s);
        const bool better = v > best_value + 1e-9 ||
                            (std::abs(v - best_value) <= 1e-9 && (len > best_len || (len == best_len && s == fallback)));
        if (better) {
            best = s;
            best_value = v;
            best_len = len;
        }
    }
    return best;
}

namespace {

// Fitted by tools/fit_bidding.py on bench/bid_data (docs/bots.md "Bidding fitted to data"):
//   build/release/bench/bid_data --deals 100000 --seed 77 > /tmp/bid_heuristic.csv
//   python3 tools/fit_bidding.py /tmp/bid_heuristic.csv heuristic
// refitted on issue 29's card play; the iteration ends in a two-cycle, of which this is one
// member: run on this bot the commands print the other, and run on that one, these again.
// FIT-BEGIN heuristic
// heuristic decl: 433934 rows fitted (deal ids not 4 mod 5), held-out RMSE 1.671 on 108592 rows; residual sd by partner state (unknown, bid, passed) 1.685, 1.784, 1.526
//   weights on [1, x, P, P*x, Q, Q*x, P*partner_bid, opp_bids]
// heuristic def: 214459 rows fitted (deal ids not 4 mod 5), held-out RMSE 1.667 on 53567 rows; residual sd by partner state (unknown, bid, passed) 1.746, 1.635, 1.648
//   weights on [1, x, high, P, Q]
constexpr std::array<double, 8> kHeuristicDecl{+4.5081, +0.6889, -0.0912, -0.0925, -0.6600, +0.1057, +0.1378, -0.3626};
constexpr std::array<double, 3> kHeuristicDeclSd{1.6846, 1.7835, 1.5264};
constexpr std::array<double, 5> kHeuristicDef{+8.6371, +0.2161, -0.6794, +0.5153, -0.0500};
constexpr std::array<double, 3> kHeuristicDefSd{1.7462, 1.6350, 1.6478};
// FIT-END heuristic

constexpr LevantineBidModel kHeuristicModel{kHeuristicDecl, kHeuristicDeclSd, kHeuristicDef, kHeuristicDefSd};

}  // namespace

Action HeuristicBot::decide_call(const SeatView& view) {
    const Rules& rules = view.rules();
    const CardSet hand = view.hand();
    const double own = estimate_tricks(hand, best_trump(hand));
    const AuctionRead a = read_auction(view);
    const HeuristicParams& p = params_;
    const int high = view.high_bid();
    const bool partner_high = high > 0 && view.high_bidder() == partner(view.seat());
    const std::optional<int> need = view.lowest_bid();  // rules.md "Auction", from core

    if (rules.scoring == ScoringStyle::bid_value && p.expected_points) {
        // Levantine by expected points, with the team's tricks as declarer and as defender
        // from models fitted to the heuristic's own play (kHeuristicModel, bid_model.hpp).
        const int bid = levantine_expected_points_call(view, own, kHeuristicModel, p.pass_margin, p.preempt,
                                                       p.declarer_shift, p.defender_shift);
        return bid > 0 ? Action::bid(bid) : Action::pass();
    }

    // Expected team tricks, calibrated on 20,000 heuristic-played deals (docs/bots.md): with
    // the partner unknown the team takes about 4.7 + 0.61 * own. A partner's first bid b says
    // the partner expects about b + 0.8 with an average hand opposite (own about 3.7); only
    // part of any extra counts (partner_extra), because the partner's estimate was for the
    // partner's own trump suit. A partner who passed holds less than average; an opponent who
    // bid holds more.
    double team = p.base + p.slope * own;
    if (a.partner_bid > 0) team = a.partner_bid + 0.8 + p.partner_extra * (own - 3.7);
    else if (a.partner_passed) team = p.base_partner_passed + p.slope * own;
    team -= p.opponent_bid * a.opponent_bids;

    if (rules.scoring == ScoringStyle::tricks_won) {
        // Classic: a made contract pays the tricks won, so bid only what wins the auction.
        if (partner_high) return Action::pass();
        if (need && team - p.margin_classic >= *need) return Action::bid(*need);
        return Action::pass();
    }
    // Levantine: a made contract pays the bid, overtricks nothing, a set costs the bid and
    // gives the defenders their tricks: bid the most the team expects to make.
    const int most = std::min(rules.max_bid, static_cast<int>(std::floor(team - p.margin_levantine)));
    if (partner_high) {
        // Raise the partner only once and only with clear extra strength (own tricks beyond the
        // share the partner counted on); the partner's later raises count for nothing more.
        if (a.my_bid == 0 && own >= p.raise_min_own && most >= high + 1) return Action::bid(most);
        return Action::pass();
    }
    if (need && most >= *need) return Action::bid(most);
    return Action::pass();
}

Action HeuristicBot::decide_trump(const SeatView& view) { return Action::name_trump(best_trump(view.hand())); }

CardChoice heuristic_card(const SeatView& view, const HeuristicParams& params) {
    const Decision t(view, params);
    const Card c = view.current_trick().empty() ? t.lead() : t.follow();
    return {c, t.why};
}

Action HeuristicBot::decide_card(const SeatView& view) { return Action::play(heuristic_card(view, params_).card); }

}  // namespace tarneeb::bots
