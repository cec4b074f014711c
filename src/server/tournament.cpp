// A tournament's state changes (include/tarneeb/server/tournament.hpp): registration, start,
// the matches' tables opened, results and forfeits counted once, byes and winners moved on
// (settle), and the champion. The schedule and standings rules are tournament_bracket.cpp's,
// the JSON tournament_json.cpp's.
#include "tarneeb/server/tournament.hpp"

#include <algorithm>

namespace tarneeb::server {

namespace {
bool is_bot(const std::string& player) { return player.rfind("bot:", 0) == 0; }
}  // namespace

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
        {"no_such_player", "no player has that name"},
        {"not_invited", "nobody named you as a partner in this tournament"},
        {"in_another_tournament", "a player of this team is in another tournament that is not over"},
    };
    for (const auto& [c, text] : kTexts)
        if (c == code) return text;
    return "";
}

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

bool Tournament::entered(const std::string& player) const {
    if (team_of(player)) return true;
    for (const auto& s : singles_)
        if (s.first == player) return true;
    for (const auto& inv : invites_)
        for (std::size_t i = 0; i < 2; ++i)
            if (inv.players[i] == player && inv.accepted[i]) return true;
    return false;
}

std::optional<std::string> Tournament::enter(std::array<std::string, 2> players, std::array<bool, 2> accepted, double rating) {
    if (state_ != TournamentState::registration) return "registration_closed";
    const bool single = settings_.pairing == Pairing::by_rating;
    if (players[0].empty() || (single != players[1].empty()) || (!single && players[0] == players[1] && !is_bot(players[0])))
        return "bad_team";
    for (std::size_t i = 0; i < 2; ++i) accepted[i] = accepted[i] || players[i].empty() || is_bot(players[i]);
    // The same team named again by its invitee: an acceptance.
    const auto same = std::find_if(invites_.begin(), invites_.end(), [&](const TournamentInvite& inv) {
        return (inv.players[0] == players[0] && inv.players[1] == players[1]) || (inv.players[0] == players[1] && inv.players[1] == players[0]);
    });
    if (same != invites_.end()) {
        for (std::size_t i = 0; i < 2; ++i) {
            const std::size_t slot = same->players[0] == players[i] ? 0 : 1;
            if (accepted[i] && !same->accepted[slot]) return accept(players[i], rating);
        }
        return "already_entered";  // its sender again: the invitation waits for the partner
    }
    for (std::size_t i = 0; i < 2; ++i)
        if (!players[i].empty() && !is_bot(players[i]) && entered(players[i])) return "already_entered";
    if (single) {
        if (static_cast<int>(singles_.size()) >= 2 * max_teams()) return "tournament_full";
        singles_.emplace_back(players[0], rating);
        drop_invites(players[0]);
    } else if (accepted[0] && accepted[1]) {
        if (static_cast<int>(teams_.size()) >= max_teams()) return "tournament_full";
        for (const auto& p : players) drop_invites(p);
        teams_.push_back(TournamentTeam{std::move(players), rating, 0});
    } else {
        if (static_cast<int>(invites_.size()) >= kMaxTournamentInvites) return "tournament_full";
        invites_.push_back(TournamentInvite{std::move(players), accepted});
    }
    return std::nullopt;
}

std::optional<std::array<std::string, 2>> Tournament::invitation_for(const std::string& player) const {
    for (const auto& inv : invites_)
        for (std::size_t i = 0; i < 2; ++i)
            if (inv.players[i] == player && !inv.accepted[i]) return inv.players;
    return std::nullopt;
}

std::optional<std::string> Tournament::accept(const std::string& player, double rating) {
    if (state_ != TournamentState::registration) return "registration_closed";
    auto it = std::find_if(invites_.begin(), invites_.end(), [&](const TournamentInvite& inv) {
        return (inv.players[0] == player && !inv.accepted[0]) || (inv.players[1] == player && !inv.accepted[1]);
    });
    if (it == invites_.end()) return "not_invited";
    if (team_of(player) || std::any_of(singles_.begin(), singles_.end(), [&](const auto& s) { return s.first == player; }))
        return "already_entered";
    const std::size_t i = it->players[0] == player ? 0 : 1;
    if (!it->accepted[1 - i]) {
        // The other has not accepted yet: this player's other acceptances are withdrawn.
        for (auto& inv : invites_)
            for (std::size_t k = 0; k < 2; ++k)
                if (&inv != &*it && inv.players[k] == player) inv.accepted[k] = false;
        it->accepted[i] = true;
        return std::nullopt;
    }
    if (static_cast<int>(teams_.size()) >= max_teams()) return "tournament_full";
    const std::array<std::string, 2> players = it->players;
    for (const auto& p : players) drop_invites(p);
    teams_.push_back(TournamentTeam{players, rating, 0});
    return std::nullopt;
}

void Tournament::drop_invites(const std::string& player) {
    if (player.empty() || is_bot(player)) return;
    std::erase_if(invites_, [&](const TournamentInvite& inv) { return inv.players[0] == player || inv.players[1] == player; });
}

bool Tournament::plays_on(const std::string& player) const {
    if (state_ == TournamentState::finished || state_ == TournamentState::cancelled) return false;
    if (state_ != TournamentState::running) return entered(player);
    const auto team = team_of(player);
    if (!team) return false;
    if (settings_.format != TournamentFormat::knockout) return true;
    for (const auto& m : matches_)
        if (m.state == TournamentMatch::State::done && !m.bye)
            for (std::size_t s = 0; s < 2; ++s)
                if (m.teams[s] == *team && m.winner != static_cast<int>(s)) return false;
    return true;
}

std::optional<std::string> Tournament::withdraw(const std::string& player) {
    if (state_ != TournamentState::registration && state_ != TournamentState::draft) return "registration_closed";
    const std::size_t invites_before = invites_.size();
    drop_invites(player);
    if (auto t = team_of(player)) {
        teams_.erase(teams_.begin() + *t);
        return std::nullopt;
    }
    auto it = std::find_if(singles_.begin(), singles_.end(), [&](const auto& s) { return s.first == player; });
    if (it == singles_.end()) return invites_.size() < invites_before ? std::nullopt : std::optional<std::string>("not_entered");
    singles_.erase(it);
    return std::nullopt;
}

std::optional<std::string> Tournament::start() {
    if (state_ != TournamentState::draft && state_ != TournamentState::registration) return "tournament_started";
    if (settings_.pairing == Pairing::by_rating) {
        if (singles_.size() % 2 != 0) return "odd_players";
        if (static_cast<int>(singles_.size()) / 2 < min_teams()) return "not_enough_teams";
        pair_singles();
    }
    if (static_cast<int>(teams_.size()) < min_teams()) return "not_enough_teams";
    invites_.clear();  // an invitation nobody answered before the start is dropped
    seed_teams();
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

}  // namespace tarneeb::server
