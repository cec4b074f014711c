// Fair play, step 2: the report as JSON and as text (include/tarneeb/fairplay/report.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tarneeb/fairplay/report.hpp"

namespace tarneeb::fairplay {

using nlohmann::json;

namespace {

double round4(double v) { return std::round(v * 10000) / 10000; }

json optional_number(const std::optional<double>& v) { return v ? json(round4(*v)) : json(nullptr); }

json score_json(const Score& s) {
    return {{"decisions", s.n}, {"best", s.k}, {"rate", round4(s.rate)}, {"z", optional_number(s.z)},
            {"expected", round4(s.expected)}, {"population", s.band ? "band" : "all"}, {"population_size", s.population}};
}

json line_json(const Tally& t, const Score& rate, const Score& hidden, const std::optional<double>& rating, int matches,
               bool flagged) {
    json j = score_json(rate);
    j["rating"] = optional_number(rating);
    j["matches"] = matches;
    j["positions"] = t.positions;
    j["hidden"] = score_json(hidden);
    j["flagged"] = flagged;
    return j;
}

std::string score_text(const Score& s) {
    char buf[128];
    if (s.z)
        std::snprintf(buf, sizeof buf, "%4d/%-4d %5.1f%%  z %+6.2f (expected %5.1f%%)", s.k, s.n, 100 * s.rate, *s.z,
                      100 * s.expected);
    else
        std::snprintf(buf, sizeof buf, "%4d/%-4d %5.1f%%  z   none", s.k, s.n, 100 * s.rate);
    return buf;
}

}  // namespace

json report_json(const Report& r) {
    json players = json::array(), partnerships = json::array();
    for (const PlayerLine& p : r.players) {
        json j = line_json(p.tally, p.rate, p.hidden, p.rating, p.matches, p.flagged);
        j["name"] = p.name;
        players.push_back(std::move(j));
    }
    for (const PartnershipLine& p : r.partnerships) {
        json j = line_json(p.tally, p.rate, p.hidden, p.rating, p.matches, p.flagged);
        j["players"] = p.names;
        partnerships.push_back(std::move(j));
    }
    return {{"options",
             {{"min_decisions", r.options.min_decisions}, {"threshold", r.options.threshold},
              {"band_width", r.options.band_width}, {"min_band", r.options.min_band}}},
            {"matches", r.matches},
            {"players", std::move(players)},
            {"partnerships", std::move(partnerships)}};
}

std::string report_text(const Report& r) {
    std::string out = "fair play over " + std::to_string(r.matches) + " matches (flag: z >= ";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", r.options.threshold);
    out += std::string(buf) + " with at least " + std::to_string(r.options.min_decisions) + " decisions)\n";
    // Names padded to the longest (in bytes: a name in another script may misalign).
    std::size_t width = 0;
    for (const PlayerLine& p : r.players) width = std::max(width, p.name.size());
    for (const PartnershipLine& p : r.partnerships) width = std::max(width, p.names[0].size() + 3 + p.names[1].size());
    auto padded = [width](std::string name) {
        name.resize(std::max(width, name.size()), ' ');
        return name;
    };
    out += "players: best card / non-obvious decisions\n";
    for (const PlayerLine& p : r.players)
        out += std::string(p.flagged ? "FLAG " : "     ") + padded(p.name) + "  " + score_text(p.rate) + "  hidden-dependent " +
               score_text(p.hidden) + "\n";
    out += "partnerships: best card / hidden-dependent decisions of both partners\n";
    for (const PartnershipLine& p : r.partnerships)
        out += std::string(p.flagged ? "FLAG " : "     ") + padded(p.names[0] + " & " + p.names[1]) + "  " +
               score_text(p.hidden) + "  all decisions " + score_text(p.rate) + "\n";
    return out;
}

}  // namespace tarneeb::fairplay
