// Fair play, step 2: players, partnerships and their scores (include/tarneeb/fairplay/report.hpp).
#include "tarneeb/fairplay/report.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace tarneeb::fairplay {

namespace {

/// One entity's measure, as the scoring sees it.
struct Sample {
    std::optional<long long> band;  ///< rating band, none without a rating
    int n = 0;
    int k = 0;
};

/// The `q` quantile of sorted `v` (linear between neighbours). Precondition: v not empty.
double quantile(const std::vector<double>& v, double q) {
    const double at = q * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(at);
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (at - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

/// Scores every sample against the others (report.hpp's file comment).
std::vector<Score> score_all(const std::vector<Sample>& samples, const ReportOptions& o) {
    std::vector<Score> out(samples.size());
    std::vector<std::size_t> scored;  // the entities with enough decisions: the populations
    for (std::size_t i = 0; i < samples.size(); ++i) {
        out[i].n = samples[i].n;
        out[i].k = samples[i].k;
        out[i].rate = samples[i].n > 0 ? static_cast<double>(samples[i].k) / samples[i].n : 0.0;
        if (samples[i].n >= std::max(1, o.min_decisions)) scored.push_back(i);
    }
    std::vector<std::size_t> pop;
    for (std::size_t i : scored) {
        pop.clear();
        for (std::size_t j : scored)
            if (j != i && samples[j].band == samples[i].band) pop.push_back(j);
        out[i].band = static_cast<int>(pop.size()) >= o.min_band;
        if (!out[i].band) {
            pop.clear();
            for (std::size_t j : scored)
                if (j != i) pop.push_back(j);
        }
        out[i].population = static_cast<int>(pop.size());
        if (pop.empty()) continue;
        double p0 = 0, tau2 = 0;
        if (static_cast<int>(pop.size()) >= o.min_band && pop.size() >= 4) {
            // A large population: its median rate and the spread of its middle half, so that
            // the cheaters in it move neither (a mean and a variance would follow them).
            std::vector<double> rates;
            double noise = 0;
            for (std::size_t j : pop) rates.push_back(out[j].rate);
            std::sort(rates.begin(), rates.end());
            p0 = quantile(rates, 0.5);
            for (std::size_t j : pop) noise += p0 * (1 - p0) / samples[j].n;
            noise /= static_cast<double>(pop.size());
            const double sd = (quantile(rates, 0.75) - quantile(rates, 0.25)) / 1.349;  // a normal's IQR
            tau2 = std::max(0.0, sd * sd - noise);
        } else {
            long long n = 0, k = 0;
            for (std::size_t j : pop) {
                n += samples[j].n;
                k += samples[j].k;
            }
            p0 = static_cast<double>(k) / static_cast<double>(n);
        }
        out[i].expected = p0;
        const double sd = std::sqrt(tau2 + p0 * (1 - p0) / samples[i].n);
        if (sd > 0) out[i].z = (out[i].rate - p0) / sd;
    }
    return out;
}

std::optional<long long> band_of(std::optional<double> rating, double width) {
    if (!rating) return std::nullopt;
    return static_cast<long long>(std::floor(*rating / std::max(1.0, width)));
}

/// Ratings given for an entity, summed to their mean.
struct RatingSum {
    double sum = 0;
    int count = 0;
    void add(std::optional<double> r) {
        if (r) {
            sum += *r;
            ++count;
        }
    }
    std::optional<double> mean() const { return count ? std::optional<double>(sum / count) : std::nullopt; }
};

/// Flagged first, then by z (highest first; unscored last), then by name.
template <class Line>
void order(std::vector<Line>& lines, Score Line::*measure) {
    std::stable_sort(lines.begin(), lines.end(), [measure](const Line& a, const Line& b) {
        if (a.flagged != b.flagged) return a.flagged;
        const auto& za = (a.*measure).z;
        const auto& zb = (b.*measure).z;
        if (za.has_value() != zb.has_value()) return za.has_value();
        if (za && zb && *za != *zb) return *za > *zb;
        return false;
    });
}

}  // namespace

Report build_report(std::span<const MatchTally> matches, const ReportOptions& options) {
    Report report;
    report.options = options;
    report.matches = static_cast<int>(matches.size());
    // std::map: the players and partnerships in name order, whatever the order of the matches.
    std::map<std::string, std::pair<PlayerLine, RatingSum>> players;
    std::map<std::array<std::string, 2>, std::pair<PartnershipLine, RatingSum>> pairs;
    for (const MatchTally& m : matches) {
        for (std::size_t s = 0; s < 4; ++s) {
            auto& [line, ratings] = players[m.names[s]];
            line.name = m.names[s];
            ++line.matches;
            line.tally += m.seats[s];
            ratings.add(m.ratings[s]);
        }
        for (std::size_t s = 0; s < 2; ++s) {
            std::array<std::string, 2> names{m.names[s], m.names[s + 2]};
            std::sort(names.begin(), names.end());
            auto& [line, ratings] = pairs[names];
            line.names = names;
            ++line.matches;
            line.tally += m.seats[s];
            line.tally += m.seats[s + 2];
            ratings.add(m.ratings[s]);
            ratings.add(m.ratings[s + 2]);
        }
    }
    std::vector<Sample> rate, hidden;
    for (auto& [name, entry] : players) {
        entry.first.rating = entry.second.mean();
        const auto band = band_of(entry.first.rating, options.band_width);
        rate.push_back({band, entry.first.tally.decisions, entry.first.tally.best});
        hidden.push_back({band, entry.first.tally.hidden, entry.first.tally.hidden_best});
        report.players.push_back(std::move(entry.first));
    }
    auto rate_scores = score_all(rate, options), hidden_scores = score_all(hidden, options);
    for (std::size_t i = 0; i < report.players.size(); ++i) {
        PlayerLine& p = report.players[i];
        p.rate = rate_scores[i];
        p.hidden = hidden_scores[i];
        p.flagged = p.rate.z && *p.rate.z >= options.threshold;
    }
    rate.clear();
    hidden.clear();
    for (auto& [names, entry] : pairs) {
        entry.first.rating = entry.second.mean();
        const auto band = band_of(entry.first.rating, options.band_width);
        rate.push_back({band, entry.first.tally.decisions, entry.first.tally.best});
        hidden.push_back({band, entry.first.tally.hidden, entry.first.tally.hidden_best});
        report.partnerships.push_back(std::move(entry.first));
    }
    rate_scores = score_all(rate, options);
    hidden_scores = score_all(hidden, options);
    for (std::size_t i = 0; i < report.partnerships.size(); ++i) {
        PartnershipLine& p = report.partnerships[i];
        p.rate = rate_scores[i];
        p.hidden = hidden_scores[i];
        p.flagged = p.hidden.z && *p.hidden.z >= options.threshold;
    }
    order(report.players, &PlayerLine::rate);
    order(report.partnerships, &PartnershipLine::hidden);
    return report;
}

}  // namespace tarneeb::fairplay
