// Par: the contract that perfect-information bidding reaches, and its score.
//
// Definition (docs/analysis.md "Par"): every seat knows the double-dummy table. Seat s can
// make any bid up to m(s) = max over trumps of table.at(trump, s) (the declarer leads, so the
// table's declarer view is exactly the contract's). Bidding beyond m(s) never pays in either
// preset (a set costs the bid and gives the defenders at least one point, which is always
// worse than letting the opponents make their best contract: see docs/analysis.md), and in
// the levantine preset a made contract scores the bid, so each seat bids exactly m(s) when
// m(s) >= 7 and its turn allows it. Hence:
//   - no seat with m(s) >= 7: the deal is passed out;
//   - otherwise the declarer is a seat with the largest m(s); ties go to the seat that speaks
//     first (calling order starts after the dealer), except in the classic preset where the
//     dealer, who may equal the standing bid, wins a tie it is part of;
//   - the contract is m(declarer) in the declarer's best trump (ties S > H > D > C);
//   - the declaring team scores the bid (levantine) or its tricks (classic), both equal to
//     m(declarer); the defenders score 0.
#pragma once

#include <array>

#include "tarneeb/core/rules.hpp"
#include "tarneeb/solver/solver.hpp"

namespace tarneeb::solver {

struct Par {
    bool passed_out = true;
    Seat declarer = Seat::s0;
    Suit trump = Suit::spades;
    int bid = 0;                    ///< the contract (7..13); 0 when passed out
    int tricks = 0;                 ///< the declaring team's double-dummy tricks
    ByTeam<int> points{};           ///< points per team for the round (rules.md "Scoring")
    friend bool operator==(const Par&, const Par&) = default;
};

/// m(s): the most tricks `s`'s team takes with `s` declaring, over the four trumps.
int best_tricks_as_declarer(const DdTable& table, Seat s);
/// The trump giving m(s) (ties S > H > D > C).
Suit best_trump(const DdTable& table, Seat s);

/// The par result of a deal for `rules` (presets' auction and scoring styles) and `dealer`.
Par par(const DdTable& table, const Rules& rules, Seat dealer);

}  // namespace tarneeb::solver
