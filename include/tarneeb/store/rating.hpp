// Players' ratings: the one copy of the rating rule (docs/protocol.md "Ratings"; issue 26).
//
// Elo between two teams: each team is rated by the mean of its two seats' ratings before the
// match, K = kRatingK (32), a draw counts ½; team 1's change is the opposite of team 0's, and
// each human seat of a team gets its team's change. Every player starts at kStartRating. Only
// a match that four people started is rated (issue 27): a match with a bot seat (one a
// stand-in took from a leaver is the leaver's), one at a casual table (MatchRow::rated false)
// and a closed match (too many passed-out deals) change nobody's rating. An abandoned match
// (Table::abandon: its table closed with nobody left) is rated as a loss for the team of the
// first who left it with `leave` (issue 27: leaving a lost match cannot dodge the rating), and
// changes nothing when nobody left (everyone dropped). kBotRating is a bot's
// fixed rating where one is still needed (a tournament team's seed). Units: Elo points, as a
// double (shown rounded to 0.1).
//
// Who asks it: both storage backends (store_match applies seat_ratings in its transaction;
// rating() answers kStartRating for a player with no row; the schema's DEFAULT of
// players.rating is start_rating_sql()) and the hall (a tournament team's rating when it
// enters: mean_rating, a bot counting kBotRating; docs/protocol.md "Seeding").
#pragma once

#include <array>
#include <span>
#include <string>

namespace tarneeb::server {

struct MatchRow;  // storage.hpp

/// A new player's rating, and the rating of a player the store does not know (Elo points).
inline constexpr double kStartRating = 1500.0;
/// A bot seat's rating: fixed, never changed by a match (Elo points).
inline constexpr double kBotRating = kStartRating;
/// Elo's K factor: the largest change one match can make (Elo points).
inline constexpr double kRatingK = 32.0;

/// Elo for two teams: returns the change of team 0's rating (team 1 gets the opposite):
/// k * (score0 - E0), E0 = 1 / (1 + 10^((rating1 - rating0) / 400)). `rating0`, `rating1`: the
/// teams' ratings; `score0` is 1 (team 0 won), 0.5 (draw) or 0.
double elo_delta(double rating0, double rating1, double score0, double k = kRatingK);

/// What storing a finished match does to each seat's numbers: `rating` is the change of that
/// seat's rating and `won` whether its team won. Every seat of a match that is not rated (a bot
/// seat, a casual table, a closed match) has `rated` false.
struct SeatRating {
    bool rated = false;
    double rating = 0;
    bool won = false;
};

/// Whether storing `row` changes ratings: a rated table's match (MatchRow::rated) of four
/// people, won or drawn. The history shows it as the match's `rated`.
bool counts_for_ratings(const MatchRow& row);

/// Each seat's SeatRating for `row` (its status: won, drawn or closed; winner; bots): Elo
/// (elo_delta) between the teams' mean ratings before the match, `ratings` (the players'
/// current ratings by seat; a bot seat's entry is ignored, it counts kBotRating). Both backends
/// apply these numbers (one rule, two SQL dialects).
std::array<SeatRating, 4> seat_ratings(const MatchRow& row, const std::array<double, 4>& ratings);

/// The mean of `ratings` (a team's rating: its players', a bot counting kBotRating);
/// kStartRating when `ratings` is empty.
double mean_rating(std::span<const double> ratings);

/// kStartRating as an SQL literal ("1500"): the DEFAULT of players.rating in both backends'
/// schemas (a database created before keeps its own default: the value is the same).
std::string start_rating_sql();

}  // namespace tarneeb::server
