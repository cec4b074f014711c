// Sampling the hidden cards (include/tarneeb/bots/layout_sampler.hpp).
#include "tarneeb/bots/layout_sampler.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "tarneeb/bots/bid_model.hpp"
#include "tarneeb/bots/card_policy.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/holder_model.hpp"

namespace tarneeb::bots {

double auction_fit(const SeatView& view, const Hands& layout, double slack, double spread) {
    BySeat<int> bid{};
    const auto calls = view.calls();
    for (int i = 0; i < static_cast<int>(calls.size()); ++i) {
        auto& b = bid[view.caller(i)];
        b = std::max(b, static_cast<int>(calls[static_cast<std::size_t>(i)]));
    }
    Hands dealt = layout;
    const auto plays = view.plays();
    for (int i = 0; i < static_cast<int>(plays.size()); ++i) dealt[view.played_by(i)] |= plays[static_cast<std::size_t>(i)];
    double fit = 1;
    for (Seat s : kSeats) {
        const int b = bid[s];
        if (s == view.seat() || b == 0) continue;
        const CardSet h = dealt[s];
        double est = 0;
        if (view.phase() == Phase::play && s == view.contract()->declarer) {
            est = model_tricks(h, view.trump());
        } else {
            for (Suit su : kSuits) est = std::max(est, model_tricks(h, su));
        }
        const double z = (est - (b - slack)) / spread;
        fit *= 0.5 * std::erfc(-z / std::sqrt(2.0));
    }
    return fit;
}

std::optional<Hands> sample_layout(const SeatView& view, Rng& rng) {
    const Seat me = view.seat();
    const CardSet unseen = view.unseen();
    BySeat<int> want{};
    BySeat<std::uint8_t> allowed{};  // bit s: may hold suit s
    for (Seat s : kSeats) {
        if (s == me) continue;
        want[s] = view.cards_left(s);
        for (Suit su : kSuits)
            if (!view.shown_void(s, su)) allowed[s] |= static_cast<std::uint8_t>(1u << index(su));
    }
    std::array<Card, 52> cards{};
    int n = 0;
    for (Card c : unseen) cards[static_cast<std::size_t>(n++)] = c;
    Hands out{};
    out[me] = view.hand();

    // Rejection sampling: uniform over the layouts that respect the counts and the voids.
    for (int attempt = 0; attempt < 40; ++attempt) {
        for (int i = n - 1; i > 0; --i)
            std::swap(cards[static_cast<std::size_t>(i)], cards[static_cast<std::size_t>(rng.below(static_cast<std::uint64_t>(i) + 1))]);
        Hands h = out;
        int pos = 0;
        bool ok = true;
        for (Seat s : kSeats) {
            if (s == me) continue;
            for (int k = 0; k < want[s] && ok; ++k) {
                const Card c = cards[static_cast<std::size_t>(pos++)];
                ok = (allowed[s] >> index(c.suit())) & 1u;
                h[s] |= c;
            }
            if (!ok) break;
        }
        if (ok) return h;
    }
    // Constrained greedy: suits with the fewest eligible seats first, each card to an eligible
    // seat with room, chosen with probability proportional to the room left.
    std::array<Suit, 4> order = kSuits;
    auto eligible = [&](Suit su) {
        int e = 0;
        for (Seat s : kSeats) e += s != me && ((allowed[s] >> index(su)) & 1u);
        return e;
    };
    std::stable_sort(order.begin(), order.end(), [&](Suit a, Suit b) { return eligible(a) < eligible(b); });
    for (int attempt = 0; attempt < 200; ++attempt) {
        Hands h = out;
        BySeat<int> room = want;
        bool ok = true;
        for (Suit su : order) {
            for (Card c : unseen.of(su)) {
                std::uint64_t total = 0;
                for (Seat s : kSeats)
                    if (s != me && ((allowed[s] >> index(su)) & 1u))
                        total += static_cast<std::uint64_t>(room[s]);
                if (total == 0) { ok = false; break; }
                std::uint64_t pick = rng.below(total);
                for (Seat s : kSeats) {
                    if (s == me || !((allowed[s] >> index(su)) & 1u)) continue;
                    const auto r = static_cast<std::uint64_t>(room[s]);
                    if (pick < r) { h[s] |= c; --room[s]; break; }
                    pick -= r;
                }
            }
            if (!ok) break;
        }
        if (ok) return h;
    }
    return std::nullopt;
}

namespace {

/// A layout drawn card by card from the holder model: each hidden card, in random order, to a
/// seat that may hold it and has room, with the chance p(card, seat) ^ `power` times the seat's
/// room left over the cards it holds (the model's odds against the prior, kept within the
/// counts). nullopt when a card finds no seat with room (then the caller deals uniformly).
std::optional<Hands> draw_layout(const SeatView& view, const HolderModel& holders, double power, Rng& rng) {
    const Seat me = view.seat();
    std::array<Card, 52> cards{};
    int n = 0;
    for (Card c : view.unseen()) cards[static_cast<std::size_t>(n++)] = c;
    for (int i = n - 1; i > 0; --i)
        std::swap(cards[static_cast<std::size_t>(i)], cards[static_cast<std::size_t>(rng.below(static_cast<std::uint64_t>(i) + 1))]);
    BySeat<int> room{}, held{};
    for (Seat s : kSeats)
        if (s != me) room[s] = held[s] = view.cards_left(s);
    Hands h{};
    h[me] = view.hand();
    for (int i = 0; i < n; ++i) {
        const Card c = cards[static_cast<std::size_t>(i)];
        BySeat<double> w{};
        double total = 0;
        for (Seat s : kSeats)
            if (s != me && room[s] > 0) total += w[s] = std::pow(holders.p(c, s), power) * room[s] / held[s];
        if (total <= 0) return std::nullopt;
        double pick = total * static_cast<double>(rng.below(1u << 30)) / static_cast<double>(1u << 30);
        Seat to = me;
        for (Seat s : kSeats) {
            if (w[s] <= 0) continue;
            to = s;
            if (pick < w[s]) break;
            pick -= w[s];
        }
        h[to] |= c;
        --room[to];
    }
    return h;
}

/// The learned policy's chance of `played` (its class of equivalent cards) in `seat_view`
/// relative to its likeliest card, to the power `power` (PlayerModel::policy).
double policy_likelihood(const SeatView& seat_view, Card played, double power) {
    const CardSet legal = seat_view.legal_cards();
    if (legal.size() < 2) return 1;
    const CardFeatures features(seat_view, heuristic_card(seat_view).card);
    const CardSet same = seat_view.equivalents(played);  // one class: count its best card
    float best = 0, mine = 0;
    bool first = true, first_mine = true;
    int i = 0;
    for (Card c : legal) {
        const float s = card_score(fitted_card_policy(), features.of(i++));
        if (first || s > best) best = s;
        first = false;
        if (same.contains(c) && (first_mine || s > mine)) {
            mine = s;
            first_mine = false;
        }
    }
    return std::exp(power * static_cast<double>(mine - best));
}

}  // namespace

double model_fit(const SeatView& view, const Hands& layout, const PlayerModel& m, double stop_below) {
    if (!m.model && !m.partner_calls && !(m.policy > 0)) return 1;
    const Seat me = view.seat();
    Hands dealt = layout;
    const auto plays = view.plays();
    for (int i = 0; i < static_cast<int>(plays.size()); ++i) dealt[view.played_by(i)] |= plays[static_cast<std::size_t>(i)];
    dealt[me] = view.dealt();
    Round round(view.rules(), view.dealer(), dealt);
    double fit = 1;
    auto step = [&](Action actual, double miss) {
        const Seat s = round.to_act();
        Bot* who = s == me ? nullptr : s != partner(me) ? m.model : actual.kind == ActionKind::call ? m.partner_calls : nullptr;
        if (who && miss < 1 && who->decide(SeatView(round, s, view.scores())) != actual) fit *= miss;
        if (m.policy > 0 && actual.kind == ActionKind::play && s != me && (s != partner(me) || m.policy_partner))
            fit *= policy_likelihood(SeatView(round, s, view.scores()), actual.card(), m.policy);
        round.apply(actual);
        return fit >= stop_below;
    };
    for (std::uint8_t c : view.calls())
        if (!step(c == 0 ? Action::pass() : Action::bid(c), m.miss_call)) return fit;
    if (view.trump_named() && round.phase() == Phase::trump && !step(Action::name_trump(view.trump()), m.miss_card)) return fit;
    for (Card c : plays)
        if (!step(Action::play(c), m.miss_card)) return fit;
    return fit;
}

std::vector<Hands> sample_layouts(const SeatView& view, Rng& rng, int samples, int tries, double slack,
                                  double spread, const PlayerModel& model) {
    // Each sample is kept with the chance that it fits the auction (auction_fit) and the
    // modelled seats' actions (model_fit), up to `tries` candidates per sample; a sample that
    // is never kept is the candidate that fitted best.
    std::vector<Hands> layouts;
    layouts.reserve(static_cast<std::size_t>(samples));
    const bool modelled = model.model || model.partner_calls || model.policy > 0;
    std::optional<HolderModel> holders;
    if (model.learned > 0) holders.emplace(view);
    for (int k = 0; k < samples; ++k) {
        std::optional<Hands> h, best;
        double best_fit = -1;
        bool kept = false;
        for (int t = 0; t < std::max(tries, 1) && !kept; ++t) {
            h = holders ? draw_layout(view, *holders, model.learned, rng) : std::nullopt;
            if (!h) h = sample_layout(view, rng);
            if (!h || tries <= 1) break;
            const double u = static_cast<double>(rng.below(1u << 20)) / static_cast<double>(1u << 20);
            double fit = auction_fit(view, *h, slack, spread);
            // The model's weight only matters if the layout could be kept or beat the best so far.
            const double bar = std::min(u, best_fit);
            if (fit > bar && modelled) fit *= model_fit(view, *h, model, bar / fit);
            kept = u < fit;
            if (fit > best_fit) {
                best_fit = fit;
                best = h;
            }
        }
        if (!h) break;
        layouts.push_back(!kept && best ? *best : *h);
    }
    return layouts;
}

std::optional<std::vector<WeightedLayout>> every_layout(const SeatView& view, std::size_t cap, double slack,
                                                        double spread, const PlayerModel& model) {
    const Seat me = view.seat();
    std::array<Card, 52> cards{};
    int n = 0;
    for (Card c : view.unseen()) cards[static_cast<std::size_t>(n++)] = c;
    BySeat<int> room{};
    for (Seat s : kSeats)
        if (s != me) room[s] = view.cards_left(s);
    std::vector<WeightedLayout> out;
    Hands h{};
    h[me] = view.hand();
    // Depth-first: card i to each seat that may hold its suit and has room; a branch whose
    // remaining cards outnumber the room left cannot happen (the counts add up).
    bool over = false;
    auto deal = [&](auto& self, int i) -> void {
        if (over) return;
        if (i == n) {
            if (out.size() == cap) over = true;
            else out.push_back({h, 1});
            return;
        }
        const Card c = cards[static_cast<std::size_t>(i)];
        for (Seat s : kSeats) {
            if (s == me || room[s] == 0 || view.shown_void(s, c.suit())) continue;
            h[s] |= c;
            --room[s];
            self(self, i + 1);
            ++room[s];
            h[s] -= c;
        }
    };
    deal(deal, 0);
    if (over || out.empty()) return std::nullopt;

    std::optional<HolderModel> holders;
    if (model.learned > 0) holders.emplace(view);
    double total = 0;
    for (WeightedLayout& l : out) {
        double w = auction_fit(view, l.hands, slack, spread);
        if (w > 0) w *= model_fit(view, l.hands, model);
        if (holders)
            for (Seat s : kSeats)
                if (s != me)
                    for (Card c : l.hands[s]) w *= std::pow(holders->p(c, s), model.learned);
        l.weight = w;
        total += w;
    }
    if (!(total > 0))
        for (WeightedLayout& l : out) l.weight = 1;
    return out;
}

}  // namespace tarneeb::bots
