// A tournament's pairing, seeding, schedule and standings rules (include/tarneeb/server/
// tournament.hpp says them): single players paired by rating, teams seeded by rating, the
// knockout bracket in the standard order with byes to the top seeds, the round-robin by the
// circle method, and the round-robin's standings with their tie-breaks.
#include "tarneeb/server/tournament.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace tarneeb::server {

namespace {
int log2_ceil(int n) {
    int r = 0;
    while ((1 << r) < n) ++r;
    return r;
}
}  // namespace

std::vector<int> bracket_order(int slots) {
    std::vector<int> order{1};
    while (static_cast<int>(order.size()) < slots) {
        // Each seed s of the smaller bracket meets 2k + 1 − s in the doubled one.
        const int k = static_cast<int>(order.size());
        std::vector<int> next;
        for (int s : order) {
            next.push_back(s);
            next.push_back(2 * k + 1 - s);
        }
        order = std::move(next);
    }
    return order;
}

void Tournament::pair_singles() {
    auto singles = singles_;
    std::stable_sort(singles.begin(), singles.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    teams_.clear();
    for (std::size_t i = 0; i + 1 < singles.size(); i += 2)
        teams_.push_back({{singles[i].first, singles[i + 1].first}, (singles[i].second + singles[i + 1].second) / 2, 0});
    singles_.clear();
}

void Tournament::seed_teams() {
    // Seeds by rating (equal ratings keep the order of entry): team index = seed − 1.
    std::stable_sort(teams_.begin(), teams_.end(), [](const auto& a, const auto& b) { return a.rating > b.rating; });
    for (std::size_t t = 0; t < teams_.size(); ++t) teams_[t].seed = static_cast<int>(t) + 1;
}

void Tournament::schedule_knockout() {
    const int n = static_cast<int>(teams_.size());
    rounds_ = log2_ceil(n);
    const int slots = 1 << rounds_;
    const auto order = bracket_order(slots);
    matches_.clear();
    for (int r = 0; r < rounds_; ++r)
        for (int k = 0; k < (slots >> (r + 1)); ++k) {
            TournamentMatch m;
            m.round = r;
            m.slot = k;
            if (r == 0)
                for (int side = 0; side < 2; ++side) {
                    const int seed = order[static_cast<std::size_t>(2 * k + side)];
                    if (seed <= n) m.teams[static_cast<std::size_t>(side)] = seed - 1;
                    else m.bye = true;  // seeds past n are byes (never both: n > slots / 2)
                }
            matches_.push_back(m);
        }
}

void Tournament::schedule_round_robin() {
    // The circle method: team 0 stays, the others turn one place each round; -1 is the bye.
    std::vector<int> circle(teams_.size());
    std::iota(circle.begin(), circle.end(), 0);
    if (circle.size() % 2 != 0) circle.push_back(-1);
    const int m = static_cast<int>(circle.size());
    rounds_ = m - 1;
    matches_.clear();
    for (int r = 0; r < rounds_; ++r) {
        int slot = 0;
        for (int i = 0; i < m / 2; ++i) {
            const int a = circle[static_cast<std::size_t>(i)], b = circle[static_cast<std::size_t>(m - 1 - i)];
            if (a < 0 || b < 0) continue;
            TournamentMatch match;
            match.round = r;
            match.slot = slot++;
            match.teams = {std::min(a, b), std::max(a, b)};
            matches_.push_back(match);
        }
        std::rotate(circle.begin() + 1, circle.end() - 1, circle.end());
    }
}

std::vector<Standing> Tournament::standings() const {
    std::vector<Standing> rows;
    if (settings_.format != TournamentFormat::round_robin || matches_.empty()) return rows;
    for (std::size_t t = 0; t < teams_.size(); ++t) rows.push_back(Standing{static_cast<int>(t)});
    // Points of each team in the matches against each other team.
    std::map<std::pair<int, int>, int> versus;
    for (const auto& m : matches_) {
        if (m.state != TournamentMatch::State::done) continue;
        for (int side = 0; side < 2; ++side) {
            const auto s = static_cast<std::size_t>(side), o = static_cast<std::size_t>(1 - side);
            Standing& row = rows[static_cast<std::size_t>(*m.teams[s])];
            ++row.played;
            row.difference += m.scores[s] - m.scores[o];
            int pts = 0;
            const bool both_out = m.forfeited[0] && m.forfeited[1];
            if (m.winner == side) ++row.won, pts = 2;
            else if (m.winner < 0 && !both_out) ++row.drawn, pts = 1;
            else ++row.lost;
            row.points += pts;
            versus[{*m.teams[s], *m.teams[o]}] += pts;
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Standing& a, const Standing& b) {
        return a.points != b.points ? a.points > b.points : a.difference > b.difference;
    });
    // Teams equal on points and difference: the matches between them, then the seed.
    for (std::size_t i = 0; i < rows.size();) {
        std::size_t j = i + 1;
        while (j < rows.size() && rows[j].points == rows[i].points && rows[j].difference == rows[i].difference) ++j;
        if (j - i > 1) {
            std::map<int, int> mini;
            for (std::size_t a = i; a < j; ++a)
                for (std::size_t b = i; b < j; ++b)
                    if (a != b) mini[rows[a].team] += versus[{rows[a].team, rows[b].team}];
            std::sort(rows.begin() + static_cast<std::ptrdiff_t>(i), rows.begin() + static_cast<std::ptrdiff_t>(j),
                      [&](const Standing& a, const Standing& b) {
                          return mini[a.team] != mini[b.team] ? mini[a.team] > mini[b.team] : a.team < b.team;
                      });
        }
        i = j;
    }
    return rows;
}

}  // namespace tarneeb::server
