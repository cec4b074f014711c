// A finished match's numbers for each seat's player profile (docs/protocol.md "Profiles"): how
// often the seat bid and what it bid, how many contracts it declared and made. The hall
// computes them from the table's Match when it builds the match's row (MatchRow::stats,
// storage.hpp) and both storage backends write them from the row; a database of an older server
// gets them from each stored record replayed into a Match (SqliteStorage's migration). One
// definition: seat_stats below.
#pragma once

#include <array>
#include <cstdint>

#include "tarneeb/core/match.hpp"

namespace tarneeb::server {

/// One seat's auction and contracts in a match.
struct SeatStats {
    std::int64_t bids = 0;       ///< bids called (passes and timeouts, which are passes, not counted)
    std::int64_t bid_sum = 0;    ///< their sum (the average bid is bid_sum / bids)
    std::int64_t contracts = 0;  ///< scored deals the seat declared
    std::int64_t made = 0;       ///< of which the contract was made
    friend bool operator==(const SeatStats&, const SeatStats&) = default;
};

/// Each seat's numbers (indexed by seat) over every round of `match`, the unfinished last one
/// too: a call's seat follows from the round's dealer (the auction starts after it and goes
/// round, rules.md "Common to both presets"); a contract counts once its round is scored
/// (passed out or still under way: none), for its declarer, and as made when the declaring team
/// took its bid (Round::made). The rules engine decides the declarer, the bid and whether it
/// was made; nothing is re-derived.
std::array<SeatStats, 4> seat_stats(const Match& match);

}  // namespace tarneeb::server
