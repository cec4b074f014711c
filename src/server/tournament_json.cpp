// A tournament as JSON (include/tarneeb/server/tournament.hpp): the names of its enums, the
// settings a client sends (parse_tournament_settings) and their JSON, and the whole tournament
// as the journal keeps it and clients see it (to_json / from_json: no card anywhere).
#include "tarneeb/server/tournament.hpp"

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
}  // namespace

std::string_view to_string(TournamentFormat f) { return kFormats[static_cast<int>(f)]; }
std::string_view to_string(NoShow n) { return kNoShows[static_cast<int>(n)]; }
std::string_view to_string(Pairing p) { return kPairings[static_cast<int>(p)]; }
std::string_view to_string(TournamentState s) { return kStates[static_cast<int>(s)]; }

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

// ---- JSON -------------------------------------------------------------------------------------

json Tournament::to_json() const {
    json teams = json::array();
    for (const auto& t : teams_) teams.push_back({{"players", t.players}, {"rating", t.rating}, {"seed", t.seed}});
    json singles = json::array();
    for (const auto& s : singles_) singles.push_back({{"name", s.first}, {"rating", s.second}});
    json invites = json::array();
    for (const auto& inv : invites_) invites.push_back({{"players", inv.players}, {"accepted", inv.accepted}});
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
             {"invites", std::move(invites)},
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
        if (const auto inv = j.find("invites"); inv != j.end())  // written since issue 27
            for (const auto& ij : *inv)
                t.invites_.push_back({ij.at("players").get<std::array<std::string, 2>>(), ij.at("accepted").get<std::array<bool, 2>>()});
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
