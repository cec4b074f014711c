// Par (definition in include/tarneeb/solver/par.hpp and docs/analysis.md).
#include "tarneeb/solver/par.hpp"

namespace tarneeb::solver {

Suit best_trump(const DdTable& table, Seat s) {
    Suit best = Suit::spades;
    for (int su = 3; su >= 0; --su) {  // S, H, D, C: the first maximum wins ties
        const Suit t = static_cast<Suit>(su);
        if (table.at(t, s) > table.at(best, s)) best = t;
    }
    return best;
}

int best_tricks_as_declarer(const DdTable& table, Seat s) { return table.at(best_trump(table, s), s); }

Par par(const DdTable& table, const Rules& rules, Seat dealer) {
    Par p;
    int best = rules.min_bid - 1;
    for (int i = 1; i <= 4; ++i) {  // calling order: the player after the dealer first
        const Seat s = next(dealer, i);
        const int m = std::min(best_tricks_as_declarer(table, s), rules.max_bid);
        const bool dealer_equals = rules.auction == AuctionStyle::single_round_dealer_equals && s == dealer;
        if (m > best || (dealer_equals && m == best && !p.passed_out)) {
            best = m;
            p.passed_out = false;
            p.declarer = s;
        }
    }
    if (p.passed_out) return p;
    p.trump = best_trump(table, p.declarer);
    p.bid = best;
    p.tricks = table.at(p.trump, p.declarer);
    const int score = rules.scoring == ScoringStyle::bid_value ? p.bid : p.tricks;
    p.points[team_of(p.declarer)] = score;
    return p;
}

}  // namespace tarneeb::solver
