// The learned holder model (include/tarneeb/bots/holder_model.hpp).
#include "tarneeb/bots/holder_model.hpp"

#include <algorithm>
#include <cmath>

#include "tarneeb/core/trick.hpp"

namespace tarneeb::bots {

namespace {
constexpr std::size_t su(Suit s) { return static_cast<std::size_t>(index(s)); }

/// Bits k..12 (ranks k and above).
constexpr std::uint16_t ranks_from(int k) { return static_cast<std::uint16_t>(0x1FFFu & ~((1u << k) - 1u)); }
}  // namespace

HolderEvidence read_evidence(const SeatView& view) {
    HolderEvidence e;
    const auto calls = view.calls();
    for (int i = 0; i < static_cast<int>(calls.size()); ++i) {
        const Seat s = view.caller(i);
        const int call = calls[static_cast<std::size_t>(i)];
        e.high_bid[s] = std::max(e.high_bid[s], call);
    }
    for (int i = 0; i < static_cast<int>(calls.size()); ++i) e.only_passed[view.caller(i)] = e.high_bid[view.caller(i)] == 0;
    if (!view.trump_named()) return e;  // no card played yet
    const Suit trump = view.trump();
    // Each trick so far, the one under way included, card by card.
    for (int t = 0; t <= view.tricks_played() && t < 13; ++t) {
        const Trick trick = view.trick(t);
        if (trick.empty()) break;
        const Suit led = trick.led();
        Trick so_far(trick.leader(), trump);
        for (int i = 0; i < trick.size(); ++i) {
            const Card c = trick[i];
            const Seat s = trick.player(i);
            e.played[s][su(c.suit())]++;
            if (i == 0) {
                e.led[s][su(led)]++;
                auto& below = e.led_below[s][su(led)];
                if (c.rank() != Rank::ace) below = static_cast<std::uint16_t>(below | ranks_from(index(c.rank()) + 1));
            } else if (c.suit() == led) {
                // Following: every card of the suit that would have taken the trick here and is
                // above the one played was probably not held (a player takes a trick it can).
                const Card winning = so_far.winning_card();
                for (int k = index(c.rank()) + 1; k < 13; ++k)
                    if (beats(Card(led, static_cast<Rank>(k)), winning, led, trump)) {
                        auto& d = e.declined[s][su(led)];
                        d = static_cast<std::uint16_t>(d | (1u << k));
                    }
            } else if (c.suit() == trump) {
                e.ruffed[s]++;
            } else {
                e.discarded[s][su(c.suit())]++;
            }
            so_far.add(c);
        }
    }
    return e;
}

void holder_features(const SeatView& view, const HolderEvidence& e, Seat s, Card c, std::span<double, kHolderFeatures> f) {
    const std::size_t u = su(c.suit());
    const int rel = (index(s) - index(view.seat()) + 4) % 4;  // 1 left, 2 partner, 3 right
    const bool trump = view.trump_named() && c.suit() == view.trump();
    const auto contract = view.contract();
    const bool declarer = contract && contract->declarer == s;
    const double rank = index(c.rank()) / 12.0;
    const double bid = e.high_bid[s] / 13.0;
    int voids = 0;
    for (Suit other : kSuits) voids += other != c.suit() && view.shown_void(s, other);
    const bool partner_declares = contract && contract->declarer == partner(s);
    std::fill(f.begin(), f.end(), 0.0);
    f[static_cast<std::size_t>(rel - 1)] = 1;                 // 0-2: the seat's place
    f[3] = std::log(std::max(1, view.cards_left(s)));        // the prior: cards it holds
    f[4] = bid;
    f[5] = e.only_passed[s];
    f[6] = declarer;
    f[7] = voids;                                            // its other cards are in fewer suits
    f[8] = trump && declarer;
    f[9] = rank * (declarer ? 1 : 0);
    f[10] = rank * bid;
    f[11] = trump && declarer ? rank : 0;
    f[12] = e.played[s][u] / 13.0;
    f[13] = e.led[s][u] / 4.0;
    f[14] = e.discarded[s][u] / 4.0;
    f[15] = trump ? e.ruffed[s] / 4.0 : 0;
    f[16] = (e.declined[s][u] >> index(c.rank())) & 1u;
    f[17] = (e.led_below[s][u] >> index(c.rank())) & 1u;
    f[18] = rank * e.only_passed[s];
    f[19] = rank * e.led[s][u] / 4.0;
    f[20] = trump && partner_declares;
}

HolderModel::HolderModel(const SeatView& view, const HolderWeights& w) {
    const HolderEvidence e = read_evidence(view);
    std::array<double, kHolderFeatures> f{};
    for (Card c : view.unseen()) {
        auto& row = p_[static_cast<std::size_t>(c.dense())];
        std::array<double, 4> score{};
        double best = -1e300;
        for (Seat s : kSeats) {
            if (s == view.seat() || view.cards_left(s) == 0 || view.shown_void(s, c.suit())) continue;
            holder_features(view, e, s, c, f);
            double z = 0;
            for (int k = 0; k < kHolderFeatures; ++k) z += w[static_cast<std::size_t>(k)] * f[static_cast<std::size_t>(k)];
            score[static_cast<std::size_t>(index(s))] = z;
            best = std::max(best, z);
            row[static_cast<std::size_t>(index(s))] = 1;  // may hold it
        }
        double sum = 0;
        for (std::size_t s = 0; s < 4; ++s)
            if (row[s] > 0) sum += row[s] = std::exp(score[s] - best);
        for (double& x : row) x = sum > 0 ? x / sum : 0;
    }
}

}  // namespace tarneeb::bots
