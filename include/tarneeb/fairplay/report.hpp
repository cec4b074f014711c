// Fair play (issue 27, docs/fairplay.md), step 2: the report. Players and partnerships,
// their match rates against the double-dummy best card, scored against the population.
//
// Entities: a **player** is a name summed over every seat it held (decisions.hpp tallies); a
// **partnership** is an unordered pair of names that sat as partners, summed over both seats.
// Measures: the player's **rate** = best / decisions (non-obvious decisions); the partnership's
// **hidden rate** = hidden_best / hidden over both partners (the positions where the best card
// depends on where the unseen cards lie: a pair that exchanges its hands through a side
// channel plays as if it saw them).
//
// Score: a z-score of the entity's rate against its population, leave-one-out (the entity
// itself never counts in its own population):
//   population  the other entities of the same rating band (band_width Elo points, by the mean
//               of the ratings given; entities without a rating form one band) that have at
//               least min_decisions decisions of the measure; when that band has fewer than
//               min_band of them, every other such entity, whatever its rating ("all").
//   p0, tau2    with min_band or more entities in the population: p0 its median rate and tau2
//               the spread of true rates between its entities, (IQR / 1.349)^2 minus the mean
//               binomial noise p0 (1 - p0) / n_j (at least 0): robust, so the cheaters in a
//               population move neither. Smaller: p0 its pooled rate (sum of bests / sum of
//               decisions) and tau2 = 0 (a small population cannot tell skill from chance).
//   z           (rate - p0) / sqrt(tau2 + p0 (1 - p0) / n); none when n < min_decisions, the
//               population is empty, or the denominator is 0.
// A player is flagged when its z (on the rate) reaches `threshold`; a partnership when the z of
// its hidden rate does. Limits (docs/fairplay.md): double dummy is not what a player could
// know, so strong honest players score above weaker ones (tau2 absorbs that only in a large
// population); a cheater who uses the hidden cards on a few decisions only stays under the
// threshold; several cheaters in a small population raise p0 for everyone.
//
// Pure and deterministic: no solver, no I/O; the same tallies give the same report.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/fairplay/decisions.hpp"

namespace tarneeb::fairplay {

struct ReportOptions {
    int min_decisions = 40;    ///< decisions (of the measure) below which nothing is scored or flagged
    double threshold = 3.0;    ///< flag at z >= threshold (standard deviations)
    double band_width = 200;   ///< Elo points per rating band (band = floor(rating / band_width))
    int min_band = 10;         ///< scored entities a band needs to be its own population (and for tau2)
};

/// A rate scored against the population (the file comment).
struct Score {
    int n = 0;                  ///< decisions of the measure
    int k = 0;                  ///< of which best
    double rate = 0;            ///< k / n (0 when n = 0)
    std::optional<double> z;    ///< none: not scored (n < min_decisions, no population)
    double expected = 0;        ///< p0 of the population (0 when none)
    bool band = false;          ///< the population is the entity's rating band (else "all")
    int population = 0;         ///< entities in the population
};

struct PlayerLine {
    std::string name;
    std::optional<double> rating;  ///< mean of the ratings given, when any
    int matches = 0;
    Tally tally;
    Score rate;                    ///< best / decisions
    Score hidden;                  ///< hidden_best / hidden (reported, not flagged on)
    bool flagged = false;          ///< rate.z >= threshold
};

struct PartnershipLine {
    std::array<std::string, 2> names;  ///< in name order
    std::optional<double> rating;      ///< mean of both players' ratings given, when any
    int matches = 0;
    Tally tally;                       ///< both partners' decisions
    Score rate;                        ///< best / decisions (reported)
    Score hidden;                      ///< hidden_best / hidden
    bool flagged = false;              ///< hidden.z >= threshold
};

struct Report {
    ReportOptions options;
    int matches = 0;
    std::vector<PlayerLine> players;            ///< flagged first, then by z (highest first), then name
    std::vector<PartnershipLine> partnerships;  ///< the same order
};

/// The report over `matches` (file comment). O(N^2 log N) for N players (each scored against
/// the N - 1 others, sorting their rates). A name seated twice in one match counts as two
/// seats of one player (a test may do that; the server never seats one name twice).
Report build_report(std::span<const MatchTally> matches, const ReportOptions& options = {});

/// {"options": {...}, "matches", "players": [{"name", "rating", "matches", "positions",
/// "decisions", "best", "rate", "z", "expected", "population": "band"|"all", "population_size",
/// "hidden": {"decisions", "best", "rate", "z", "expected"}, "flagged"}...], "partnerships":
/// [{"players": [a, b], "rating", "matches", "positions", "decisions", "best", "rate", "z",
/// "hidden": {...}, "flagged"}...]} (docs/fairplay.md). z and rating are null when absent.
nlohmann::json report_json(const Report& report);

/// The report as text for operators: one line per player and per partnership, flagged ones
/// marked with "FLAG".
std::string report_text(const Report& report);

}  // namespace tarneeb::fairplay
