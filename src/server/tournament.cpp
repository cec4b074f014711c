// Tournaments: knockout brackets and round-robins as plain values (include/tarneeb/server/
// tournament.hpp says the rules: seeding, byes, standings, forfeits).
#include "tarneeb/server/tournament.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace tarneeb::server {

using nlohmann::json;

namespace {
constexpr std::string_view kFormats[] = {"knockout", "round_robin"};
constexpr std::string_view kNoShows[] = {"forfeit", "bots"};
constexpr std::string_view kPairings[] = {"partners", "by_rating"};
constexpr std::string_view kStates[] = {"draft", "registration", "running", "finished", "cancelled"};
constexpr std::string_view kMatchStates[] = {"waiting", "ready", "playing", "done"};

template <class E, std::size_t N>
std::optional<E> parse_enum(const json& j, const std::string_view (&names)[N]) {
    if (!j.is_string()) return std::nullopt;
    for (std::size_t i = 0; i < N; ++i)
        if (names[i] == j.get_ref<const std::string&>()) return static_cast<E>(i);
    return std::nullopt;
}

bool is_bot(const std::string& player) { return player.rfind("bot:", 0) == 0; }

int log2_ceil(int n) {
    int r = 0;
    while ((1 << r) < n) ++r;
    return r;
}
}  // namespace

std::string_view to_string(TournamentFormat f) { return kFormats[static_cast<int>(f)]; }
std::string_view to_string(NoShow n) { return kNoShows[static_cast<int>(n)]; }
std::string_view to_string(Pairing p) { return kPairings[static_cast<int>(p)]; }
std::string_view to_string(TournamentState s) { return kStates[static_cast<int>(s)]; }

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

std::string_view tournament_error_text(std::string_view code) {
    static constexpr std::pair<std::string_view, std::string_view> kTexts[] = {
        {"no_such_tournament", "no such tournament"},
        {"not_organiser", "only the tournament's organiser may do that"},
        {"registration_closed", "registration is closed"},
        {"tournament_full", "the tournament is full"},
        {"already_entered", "a player of this team is entered already"},
        {"bad_team", "a team is two different players (one with pairing by rating)"},
        {"not_entered", "this player is not entered"},
        {"tournament_started", "the tournament has started"},
        {"not_enough_teams", "not enough teams to start"},
        {"odd_players", "an even number of players is needed to pair them"},
        {"tournament_over", "the tournament is over"},
        {"too_many_tournaments", "too many tournaments: finish or cancel one first"},
        {"seat_reserved", "this seat is reserved for a player of the tournament's match"},
        {"tournament_table", "the tournament seats the bots and starts the match at its tables"},
    };
    for (const auto& [c, text] : kTexts)
        if (c == code) return text;
    return "";
}

// ---- settings --------------------------------------------------------------------------------

std::optional<TournamentSettings> parse_tournament_settings(const json& j) {
    if (!j.is_object()) return std::nullopt;
    TournamentSettings s;
    auto name = j.find("name");
    if (name == j.end() || !name->is_string()) return std::nullopt;
    s.name = name->get<std::string>();
    auto get_int = [&](const char* key, auto& out, std::int64_t lo, std::int64_t hi) {
        auto it = j.find(key);
        if (it == j.end() || it->is_null()) return true;
        if (!it->is_number_integer()) return false;
        const auto v = it->get<std::int64_t>();
        if (v < lo || v > hi) return false;
        out = static_cast<std::remove_reference_t<decltype(out)>>(v);
        return true;
    };
    auto get_enum = [&](const char* key, auto& out, const auto& names) {
        auto it = j.find(key);
        if (it == j.end() || it->is_null()) return true;
        auto v = parse_enum<std::remove_reference_t<decltype(out)>>(*it, names);
        if (!v) return false;
        out = *v;
        return true;
    };
    if (auto p = j.find("preset"); p != j.end() && !p->is_null()) {
        if (!p->is_string()) return std::nullopt;
        const auto preset = parse_preset(p->get_ref<const std::string&>());
        if (!preset) return std::nullopt;
        s.preset = *preset;
    }
    if (!get_enum("format", s.format, kFormats) || !get_enum("no_show", s.no_show, kNoShows) ||
        !get_enum("pairing", s.pairing, kPairings) || !get_int("target", s.target, 1, 500) ||
        !get_int("turn_seconds", s.turn_seconds, 0, 600) || !get_int("seat_seconds", s.seat_seconds, 10, 3600) ||
        !get_int("size", s.size, 2, kKnockoutMaxTeams) || !get_int("start", s.start_ms, 0, std::int64_t{1} << 50))
        return std::nullopt;
    if (Tournament::check(s)) return std::nullopt;
    return s;
}

json tournament_settings_json(const TournamentSettings& s) {
    return {{"name", s.name},
            {"format", to_string(s.format)},
            {"preset", to_string(s.preset)},
            {"target", s.target},
            {"turn_seconds", s.turn_seconds},
            {"seat_seconds", s.seat_seconds},
            {"no_show", to_string(s.no_show)},
            {"pairing", to_string(s.pairing)},
            {"size", s.size},
            {"start", s.start_ms}};
}

// ---- the tournament --------------------------------------------------------------------------

Tournament::Tournament(std::string id, std::string organiser, TournamentSettings settings)
    : id_(std::move(id)), organiser_(std::move(organiser)), settings_(std::move(settings)) {}

std::optional<std::string> Tournament::check(const TournamentSettings& s) {
    if (s.name.empty() || s.name.size() > kTournamentNameMax) return "the name must be 1 to 64 bytes";
    const bool ko = s.format == TournamentFormat::knockout;
    const int lo = ko ? kKnockoutMinTeams : kRoundRobinMinTeams, hi = ko ? kKnockoutMaxTeams : kRoundRobinMaxTeams;
    if (s.size < lo || s.size > hi) return "size must be " + std::to_string(lo) + " to " + std::to_string(hi) + " teams";
    if (s.target < 1 || s.target > 500 || s.turn_seconds < 0 || s.turn_seconds > 600 || s.seat_seconds < 10 ||
        s.seat_seconds > 3600)
        return "target, turn_seconds or seat_seconds out of range";
    return std::nullopt;
}

int Tournament::max_teams() const { return settings_.size; }
int Tournament::min_teams() const {
    return settings_.format == TournamentFormat::knockout ? kKnockoutMinTeams : kRoundRobinMinTeams;
}

Rules Tournament::rules() const {
    Rules r = rules_for(settings_.preset);
    r.target = settings_.target;
    r.bracket_tiebreak = settings_.format == TournamentFormat::knockout;  // rules.md "Round cap"
    return r;
}

std::optional<std::string> Tournament::set_registration(bool open) {
    if (state_ != TournamentState::draft && state_ != TournamentState::registration) return "tournament_started";
    state_ = open ? TournamentState::registration : TournamentState::draft;
    return std::nullopt;
}

std::optional<int> Tournament::team_of(const std::string& player) const {
    for (std::size_t t = 0; t < teams_.size(); ++t)
        for (const auto& p : teams_[t].players)
            if (p == player) return static_cast<int>(t);
    return std::nullopt;
}

std::optional<std::string> Tournament::enter(std::array<std::string, 2> players, double rating) {
    if (state_ != TournamentState::registration) return "registration_closed";
    const bool single = settings_.pairing == Pairing::by_rating;
    if (players[0].empty() || (single != players[1].empty()) || (!single && players[0] == players[1] && !is_bot(players[0])))
        return "bad_team";
    for (const auto& p : players) {
        if (p.empty() || is_bot(p)) continue;
        if (team_of(p)) return "already_entered";
        for (const auto& s : singles_)
            if (s.first == p) return "already_entered";
    }
    if (single) {
        if (static_cast<int>(singles_.size()) >= 2 * max_teams()) return "tournament_full";
        singles_.emplace_back(players[0], rating);
    } else {
        if (static_cast<int>(teams_.size()) >= max_teams()) return "tournament_full";
        teams_.push_back(TournamentTeam{std::move(players), rating, 0});
    }
    return std::nullopt;
}

std::optional<std::string> Tournament::withdraw(const std::string& player) {
    if (state_ != TournamentState::registration && state_ != TournamentState::draft) return "registration_closed";
    if (auto t = team_of(player)) {
        teams_.erase(teams_.begin() + *t);
        return std::nullopt;
    }
    auto it = std::find_if(singles_.begin(), singles_.end(), [&](const auto& s) { return s.first == player; });
    if (it == singles_.end()) return "not_entered";
    singles_.erase(it);
    return std::nullopt;
}

std::optional<std::string> Tournament::start() {
    if (state_ != TournamentState::draft && state_ != TournamentState::registration) return "tournament_started";
    if (settings_.pairing == Pairing::by_rating) {
        if (singles_.size() % 2 != 0) return "odd_players";
        if (static_cast<int>(singles_.size()) / 2 < min_teams()) return "not_enough_teams";
        auto singles = singles_;
        std::stable_sort(singles.begin(), singles.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        teams_.clear();
        for (std::size_t i = 0; i + 1 < singles.size(); i += 2)
            teams_.push_back({{singles[i].first, singles[i + 1].first}, (singles[i].second + singles[i + 1].second) / 2, 0});
        singles_.clear();
    }
    if (static_cast<int>(teams_.size()) < min_teams()) return "not_enough_teams";
    // Seeds by rating (equal ratings keep the order of entry): team index = seed − 1.
    std::stable_sort(teams_.begin(), teams_.end(), [](const auto& a, const auto& b) { return a.rating > b.rating; });
    for (std::size_t t = 0; t < teams_.size(); ++t) teams_[t].seed = static_cast<int>(t) + 1;
    state_ = TournamentState::running;
    if (settings_.format == TournamentFormat::knockout) schedule_knockout();
    else schedule_round_robin();
    settle();
    return std::nullopt;
}

std::optional<std::string> Tournament::cancel() {
    if (state_ == TournamentState::finished || state_ == TournamentState::cancelled) return "tournament_over";
    state_ = TournamentState::cancelled;
    return std::nullopt;
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

void Tournament::done(int mi, int winner) {
    TournamentMatch& m = matches_[static_cast<std::size_t>(mi)];
    m.state = TournamentMatch::State::done;
    m.winner = winner;
    if (settings_.format != TournamentFormat::knockout || m.round + 1 >= rounds_ || winner < 0) return;
    // The winner moves on by itself: match slot/2 of the next round, side slot mod 2.
    int next = 0;
    for (int r = 0; r <= m.round; ++r) next += (1 << rounds_) >> (r + 1);
    next += m.slot / 2;
    matches_[static_cast<std::size_t>(next)].teams[static_cast<std::size_t>(m.slot % 2)] = m.teams[static_cast<std::size_t>(winner)];
}

void Tournament::settle() {
    if (state_ != TournamentState::running) return;
    const bool ko = settings_.format == TournamentFormat::knockout;
    // The first round not over (round-robin opens one round at a time).
    int open_round = rounds_;
    for (const auto& m : matches_)
        if (m.state != TournamentMatch::State::done) open_round = std::min(open_round, m.round);
    for (std::size_t i = 0; i < matches_.size(); ++i) {
        TournamentMatch& m = matches_[i];
        if (m.state != TournamentMatch::State::waiting) continue;
        if (ko && m.bye) {
            done(static_cast<int>(i), m.teams[0] ? 0 : 1);  // the seeded side goes through
            continue;
        }
        if (m.teams[0] && m.teams[1] && (ko || m.round <= open_round)) m.state = TournamentMatch::State::ready;
    }
    if (std::all_of(matches_.begin(), matches_.end(), [](const auto& m) { return m.state == TournamentMatch::State::done; }))
        state_ = TournamentState::finished;
}

std::vector<int> Tournament::ready() const {
    std::vector<int> out;
    if (state_ != TournamentState::running) return out;
    for (std::size_t i = 0; i < matches_.size(); ++i)
        if (matches_[i].state == TournamentMatch::State::ready) out.push_back(static_cast<int>(i));
    return out;
}

void Tournament::opened(int m, std::string table, std::int64_t now) {
    TournamentMatch& match = matches_.at(static_cast<std::size_t>(m));
    if (match.state != TournamentMatch::State::ready) return;
    match.state = TournamentMatch::State::playing;
    match.table = std::move(table);
    match.seats_by_ms = now + std::int64_t{settings_.seat_seconds} * 1000;
}

void Tournament::reopen(int m) {
    TournamentMatch& match = matches_.at(static_cast<std::size_t>(m));
    if (match.state != TournamentMatch::State::playing) return;
    match.state = TournamentMatch::State::ready;
    match.table.clear();
    started_.erase(m);
}

std::optional<int> Tournament::match_at(const std::string& table) const {
    for (std::size_t i = 0; i < matches_.size(); ++i)
        if (matches_[i].state == TournamentMatch::State::playing && matches_[i].table == table) return static_cast<int>(i);
    return std::nullopt;
}

std::vector<int> Tournament::seat_time_over(std::int64_t now) const {
    std::vector<int> out;
    for (std::size_t i = 0; i < matches_.size(); ++i) {
        const auto& m = matches_[i];
        if (m.state == TournamentMatch::State::playing && !started_.count(static_cast<int>(i)) && now >= m.seats_by_ms)
            out.push_back(static_cast<int>(i));
    }
    return out;
}

void Tournament::started(int m) { started_.insert(m); }

bool Tournament::finished(int mi, int winner, std::array<int, 2> scores, bool tiebreak, std::string record) {
    if (mi < 0 || mi >= static_cast<int>(matches_.size()) || state_ != TournamentState::running) return false;
    TournamentMatch& m = matches_[static_cast<std::size_t>(mi)];
    if (m.state != TournamentMatch::State::playing) return false;  // counted once
    m.scores = scores;
    m.tiebreak = tiebreak;
    m.record = std::move(record);
    if (settings_.format == TournamentFormat::knockout && winner < 0) {
        // No result (closed): the higher score, then the higher seed [decision].
        winner = scores[0] != scores[1] ? (scores[0] > scores[1] ? 0 : 1) : (*m.teams[0] < *m.teams[1] ? 0 : 1);
    }
    done(mi, winner);
    settle();
    return true;
}

bool Tournament::forfeit(int mi, std::array<bool, 2> absent) {
    if (mi < 0 || mi >= static_cast<int>(matches_.size()) || state_ != TournamentState::running) return false;
    TournamentMatch& m = matches_[static_cast<std::size_t>(mi)];
    if (m.state != TournamentMatch::State::playing || (!absent[0] && !absent[1])) return false;
    m.forfeited = absent;
    int winner = -1;
    if (absent[0] != absent[1]) {
        winner = absent[0] ? 1 : 0;
        m.scores[static_cast<std::size_t>(winner)] = settings_.target;  // a walkover: target–0
    } else if (settings_.format == TournamentFormat::knockout) {
        winner = *m.teams[0] < *m.teams[1] ? 0 : 1;  // both absent: the higher seed
    }
    done(mi, winner);
    settle();
    return true;
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

std::optional<int> Tournament::champion() const {
    if (state_ != TournamentState::finished) return std::nullopt;
    if (settings_.format == TournamentFormat::round_robin) {
        const auto rows = standings();
        if (rows.empty()) return std::nullopt;
        return rows.front().team;
    }
    const auto& final_match = matches_.back();
    if (final_match.winner < 0) return std::nullopt;
    return final_match.teams[static_cast<std::size_t>(final_match.winner)];
}

// ---- JSON -------------------------------------------------------------------------------------

json Tournament::to_json() const {
    json teams = json::array();
    for (const auto& t : teams_) teams.push_back({{"players", t.players}, {"rating", t.rating}, {"seed", t.seed}});
    json singles = json::array();
    for (const auto& s : singles_) singles.push_back({{"name", s.first}, {"rating", s.second}});
    json matches = json::array();
    for (std::size_t i = 0; i < matches_.size(); ++i) {
        const auto& m = matches_[i];
        auto side = [](const std::optional<int>& t) { return t ? json(*t) : json(nullptr); };
        json j{{"round", m.round},
               {"slot", m.slot},
               {"teams", {side(m.teams[0]), side(m.teams[1])}},
               {"state", kMatchStates[static_cast<int>(m.state)]},
               {"table", m.table},
               {"seats_by", m.seats_by_ms},
               {"started", started_.count(static_cast<int>(i)) != 0},
               {"winner", m.winner},
               {"scores", m.scores},
               {"record", m.record},
               {"bye", m.bye},
               {"forfeited", m.forfeited},
               {"tiebreak", m.tiebreak}};
        matches.push_back(std::move(j));
    }
    json out{{"id", id_},
             {"organiser", organiser_},
             {"settings", tournament_settings_json(settings_)},
             {"state", to_string(state_)},
             {"teams", std::move(teams)},
             {"singles", std::move(singles)},
             {"rounds", rounds_},
             {"matches", std::move(matches)}};
    if (const auto rows = standings(); !rows.empty()) {
        json table = json::array();
        for (const auto& r : rows)
            table.push_back({{"team", r.team}, {"played", r.played}, {"won", r.won}, {"drawn", r.drawn},
                             {"lost", r.lost}, {"points", r.points}, {"difference", r.difference}});
        out["standings"] = std::move(table);
    }
    const auto champ = champion();
    out["champion"] = champ ? json(*champ) : json(nullptr);
    return out;
}

std::optional<Tournament> Tournament::from_json(const json& j) {
    try {
        auto settings = parse_tournament_settings(j.at("settings"));
        if (!settings) return std::nullopt;
        Tournament t(j.at("id").get<std::string>(), j.at("organiser").get<std::string>(), *settings);
        auto state = parse_enum<TournamentState>(j.at("state"), kStates);
        if (!state) return std::nullopt;
        t.state_ = *state;
        for (const auto& tj : j.at("teams"))
            t.teams_.push_back({tj.at("players").get<std::array<std::string, 2>>(), tj.at("rating").get<double>(),
                                tj.at("seed").get<int>()});
        for (const auto& sj : j.at("singles")) t.singles_.emplace_back(sj.at("name").get<std::string>(), sj.at("rating").get<double>());
        t.rounds_ = j.at("rounds").get<int>();
        const int n = static_cast<int>(t.teams_.size());
        for (const auto& mj : j.at("matches")) {
            TournamentMatch m;
            m.round = mj.at("round").get<int>();
            m.slot = mj.at("slot").get<int>();
            for (std::size_t s = 0; s < 2; ++s) {
                const json& side = mj.at("teams").at(s);
                if (side.is_null()) continue;
                const int team = side.get<int>();
                if (team < 0 || team >= n) return std::nullopt;
                m.teams[s] = team;
            }
            auto ms = parse_enum<TournamentMatch::State>(mj.at("state"), kMatchStates);
            if (!ms) return std::nullopt;
            m.state = *ms;
            m.table = mj.at("table").get<std::string>();
            m.seats_by_ms = mj.at("seats_by").get<std::int64_t>();
            m.winner = mj.at("winner").get<int>();
            m.scores = mj.at("scores").get<std::array<int, 2>>();
            m.record = mj.at("record").get<std::string>();
            m.bye = mj.at("bye").get<bool>();
            m.forfeited = mj.at("forfeited").get<std::array<bool, 2>>();
            m.tiebreak = mj.at("tiebreak").get<bool>();
            if (m.winner < -1 || m.winner > 1 || (m.winner >= 0 && !m.teams[static_cast<std::size_t>(m.winner)] && !m.bye))
                return std::nullopt;
            if (mj.at("started").get<bool>()) t.started_.insert(static_cast<int>(t.matches_.size()));
            t.matches_.push_back(std::move(m));
        }
        return t;
    } catch (const json::exception&) {
        return std::nullopt;
    }
}

}  // namespace tarneeb::server
