// Stored match rows for the tests that store matches without playing them (storage_test.cpp,
// hall_test.cpp): one stand-in row, so that a new field of MatchRow is filled in once.
#pragma once

#include <cstdint>
#include <string>

#include "tarneeb/store/storage.hpp"

namespace tarneeb::server::testing {

/// A stored match row of table `id` up to its '-' ("t3-2": table "t3"), finished at `finished`
/// (Unix ms): four bots named id-a .. id-d, won 12–31 by team 1, under preset `rules`. Its
/// record is a stand-in ("{}": no deal, which the match lists do not read) and its seats'
/// numbers (stats) are zero, as for a match of no deal.
inline MatchRow match_row(const std::string& id, std::int64_t finished, bool is_private,
                          const std::string& rules = "levantine") {
    MatchRow row;
    row.id = id;
    row.table = id.substr(0, id.find('-'));
    row.finished_ms = finished;
    row.names = {id + "-a", id + "-b", id + "-c", id + "-d"};
    row.bots = {true, true, true, true};
    row.status = "won";
    row.winner = 1;
    row.scores = {12, 31};
    row.record = "{}";
    row.rules = rules;
    row.is_private = is_private;
    return row;
}

}  // namespace tarneeb::server::testing
