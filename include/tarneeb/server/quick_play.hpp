// Quick play (issue 28; docs/protocol.md "Quick play"): one message that seats a player at a
// quick-play table of its preset with people of a similar rating, or at a new one that fills
// with computer players after TableTiming::quick_fill_ms (room/table.hpp TableSettings::quick).
//
// The pool is the lobby: every quick-play table waiting for people is a public table whose
// summary (summary_json) carries "quick": {"rating", "fill_at"}, and a cluster's fronts see
// every node's (the directory's lobby). The choice below is pure: the front (the Hall,
// hall_quick_play.cpp) reads the player's rating, lists the summaries, asks choose_quick_table
// and joins the table through its Tables (so a table of another node is joined where it runs).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/core/cards.hpp"
#include "tarneeb/core/rules.hpp"
#include "tarneeb/room/table.hpp"

namespace tarneeb::server {

/// `quick_play` from a guest seated at a table (leave it first; a spectator may).
inline constexpr std::string_view kAlreadySeated = "already_seated";

/// How far (Elo points) a table's rating may be from the player's when the table has waited
/// `waited` ms of its `fill_ms`: 150 at first, growing evenly to 500 at its fill time (as
/// Lichess's pools widen the range the longer a player waits).
int quick_window(Millis waited, Millis fill_ms);

/// Where a quick player sits: a table and its seat.
struct QuickSeat {
    std::string table;
    Seat seat = Seat::s0;
    int people = 0;     ///< people seated there
    Millis fill_at = 0; ///< when its empty seats get bots
};

/// The order choose_quick_table prefers tables in: more people, then waiting longer (an earlier
/// fill_at), then the smaller id. A strict order: of two tables, at most one comes before the other.
bool quick_before(const QuickSeat& a, const QuickSeat& b);

/// The table for a player of `rating` who wants `preset`, among lobby summaries `tables`
/// (summary_json's shape; anything else in the list is skipped): a public quick-play table of
/// that preset, waiting for people (its fill_at still ahead of `now`), with an empty seat, whose
/// rating is within quick_window of the player's. Of those, the one with the most people, then
/// the one waiting longest, then the smallest id; its first empty seat; never table `except`.
/// nullopt: none (make one).
std::optional<QuickSeat> choose_quick_table(const std::vector<nlohmann::json>& tables, Preset preset, int rating,
                                            Millis now, Millis fill_ms, std::string_view except = {});

}  // namespace tarneeb::server
