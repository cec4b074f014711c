// The rating rule (include/tarneeb/store/rating.hpp; docs/protocol.md "Ratings").
#include "tarneeb/store/rating.hpp"

#include <algorithm>

#include <charconv>
#include <cmath>

#include "tarneeb/store/storage.hpp"

namespace tarneeb::server {

double elo_delta(double rating0, double rating1, double score0, double k) {
    const double expected0 = 1.0 / (1.0 + std::pow(10.0, (rating1 - rating0) / 400.0));
    return k * (score0 - expected0);
}

bool counts_for_ratings(const MatchRow& row) {
    // Only a match of four people is rated (issue 27: wins against bots were farmed), and not
    // at a casual table; a seat a stand-in took from a leaver is the leaver's (not a bot's).
    // An abandoned match counts as a loss for the team of the first who left (Table::abandon).
    const bool ended = row.status == "won" || row.status == "drawn" || (row.status == "abandoned" && row.winner >= 0);
    return ended && row.rated && std::none_of(row.bots.begin(), row.bots.end(), [](bool b) { return b; });
}

std::array<SeatRating, 4> seat_ratings(const MatchRow& row, const std::array<double, 4>& ratings) {
    std::array<SeatRating, 4> out{};
    if (!counts_for_ratings(row)) return out;
    std::array<double, 4> r{};
    for (std::size_t s = 0; s < 4; ++s) r[s] = row.bots[s] ? kBotRating : ratings[s];
    const double score0 = row.status == "drawn" ? 0.5 : (row.winner == 0 ? 1.0 : 0.0);
    const double d0 = elo_delta((r[0] + r[2]) / 2, (r[1] + r[3]) / 2, score0);
    for (std::size_t s = 0; s < 4; ++s) {
        if (row.bots[s]) continue;
        const bool team0 = s % 2 == 0;
        out[s] = {true, team0 ? d0 : -d0, row.status != "drawn" && row.winner == (team0 ? 0 : 1)};
    }
    return out;
}

double mean_rating(std::span<const double> ratings) {
    if (ratings.empty()) return kStartRating;
    double sum = 0;
    for (double r : ratings) sum += r;
    return sum / static_cast<double>(ratings.size());
}

std::string start_rating_sql() {
    char buf[32];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, kStartRating);  // shortest exact text: "1500"
    return std::string(buf, end);
}

}  // namespace tarneeb::server
