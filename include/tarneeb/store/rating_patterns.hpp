// The operator's rating-pattern report (issue 27, "Sandbagging and boosting", as Lichess
// looks for them): over the newest rated matches (Storage::rated_matches), per player, the
// patterns a rating is farmed or dumped with:
//   - short losses: rated matches lost within PatternLimits::short_deals deals (a player who
//     loses on purpose to lower its rating, or feeds a friend, loses fast: bidding 13 and
//     going down, or a private rated table with a tiny target);
//   - the same opponent again and again at private rated tables, one-sidedly (boosting: a
//     friend who always loses to you).
// A player is flagged for a pattern only past its thresholds (PatternLimits); the report says
// who and why, it decides nothing (an operator reads it). Input: matches in any order; output:
// flagged players first (most matches first), then the others. Pure: no database, no clock.
// Who asks it: `tarneeb rating-report` (apps/tarneeb/cmd_rating_report.cpp).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/store/storage.hpp"

namespace tarneeb::server {

/// Where a pattern starts to be flagged.
struct PatternLimits {
    int short_deals = 3;             ///< a loss within this many deals is short
    int min_short_losses = 5;        ///< flagged "short_losses" from this many short losses...
    double short_loss_share = 0.5;   ///< ...making at least this share of the player's losses
    int min_meetings = 5;            ///< flagged "same_opponent" from this many private rated matches against one player...
    double meeting_share = 0.5;      ///< ...making at least this share of the player's private rated matches...
    double one_sided = 0.8;          ///< ...of which one side won at least this share
};

/// One player's numbers and flags over the matches read.
struct PlayerPatterns {
    std::string name;
    int matches = 0;                 ///< rated matches played
    int losses = 0;                  ///< of them lost (abandoned ones by the leaver's team included)
    int short_losses = 0;            ///< lost within short_deals deals
    int private_matches = 0;         ///< rated matches at private tables
    std::string opponent;            ///< the player met most at private rated tables ("" for none)
    int meetings = 0;                ///< private rated matches against `opponent`
    int wins_against = 0, losses_against = 0;  ///< their results for this player
    std::vector<std::string> flags;  ///< "short_losses", "same_opponent" (empty: nothing seen)
};

/// The report over `matches` (rules above).
std::vector<PlayerPatterns> rating_patterns(const std::vector<RatedMatch>& matches, const PatternLimits& limits = {});

/// {"players": [{"name","matches","losses","short_losses","private_matches","opponent",
/// "meetings","wins_against","losses_against","flags"}...], "flagged": N, "matches": M}.
nlohmann::json rating_patterns_json(const std::vector<PlayerPatterns>& players, std::size_t matches_read);

}  // namespace tarneeb::server
