// The hall, its HTTP API (docs/protocol.md "HTTP endpoints"): /healthz, /metrics.json and the
// /api/... reads, which run on the writer thread, never on the hall's: the database reads and
// the replay of a record for its result (the hall's other roles: hall.cpp, hall_admission.cpp,
// hall_lobby.cpp, hall_metrics.cpp; include/tarneeb/server/hall.hpp says what the hall is).
#include "tarneeb/server/hall.hpp"

#include <algorithm>

#include "tarneeb/records/record.hpp"
#include "tarneeb/server/http_query.hpp"
#include "tarneeb/support/names.hpp"

namespace tarneeb::server {

using nlohmann::json;

namespace {

HttpReply bad_request() { return HttpReply{400, "application/json", R"({"error":"bad_request"})"}; }

/// GET /api/matches?limit=N&before=ID (docs/protocol.md "HTTP endpoints"): a page of public
/// finished matches. `limit`: decimal digits, at least 1, default 20, above kMaxMatchPage
/// taken as kMaxMatchPage (as the lobby's `list`); `before`: the id a previous page gave as
/// "next". Anything else in them is a bad request.
HttpReply match_list(Storage& storage, std::string_view query) {
    const std::optional<int> asked = int_param(query, "limit", 20, 1, 999999999);
    if (!asked) return bad_request();
    const int limit = std::min(*asked, kMaxMatchPage);
    std::optional<std::string> before = query_param(query, "before");
    if (before && before->empty()) return bad_request();
    auto page = storage.public_matches(limit, before);
    if (!page) return bad_request();  // `before` is not a listed match
    return json_reply(200, *page);
}

/// GET /api/matches/{id}: the stored record, its "players", and "result": its tarneeb-result/1
/// (docs/record-format.md), replayed by the records library here, on the writer thread.
std::optional<HttpReply> match_with_result(Storage& storage, const std::string& id) {
    const auto text = storage.match_record(id);
    if (!text) return std::nullopt;
    json record = json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (!record.is_object()) return HttpReply{200, "application/json", *text};  // not a record (never stored so): as stored
    record["result"] = records::result_json(records::replay(*text));
    return json_reply(200, record);
}

}  // namespace

bool Hall::http_path(std::string_view target) {
    const std::string_view path = target.substr(0, target.find('?'));
    return path == "/healthz" || path == "/metrics.json" || path.starts_with("/api/");
}

void Hall::http_get(std::string_view target, Millis now, std::function<void(HttpReply)> done, const std::string& address,
                    const std::string& token) {
    now_ = std::max(now_, now);
    const auto q = target.find('?');
    const std::string_view path = target.substr(0, q);
    if (path == "/healthz") {
        // "storage": the backend. SQLite: a failing write answers 503, at once (an embedded file
        // answers whenever its writes work, and its writer may be waiting on a locked file
        // meanwhile). A remote store (PostgreSQL) is also asked, on the writer thread (a read:
        // SELECT 1), whether it answers; once it answers again after a lost connection, the
        // store counts as recovered.
        // A cluster node also reports Redis ("redis": "ok" or its error code; 503 while it fails).
        const std::string backend = storage_.backend();
        const std::optional<std::optional<std::string>> redis =
            cluster_.failing ? std::optional<std::optional<std::string>>(cluster_.failing()) : std::nullopt;
        auto answer = [backend, redis](const std::optional<std::string>& failing) {
            json body{{"status", "ok"}, {"storage", backend}};
            if (redis) body["redis"] = redis->value_or("ok");
            if (failing) {
                body["status"] = "storage_unavailable";
                body["code"] = *failing;
            } else if (redis && *redis) {
                body["status"] = "redis_unavailable";
                body["code"] = **redis;
            }
            return HttpReply{body["status"] == "ok" ? 200 : 503, "application/json", body.dump()};
        };
        if (!storage_.remote()) return done(answer(storage_failing_));
        return on_writer("ping", [](Storage& s) { s.ping(); },
                         [this, answer, done = std::move(done)](const std::optional<StorageError>& e) {
                             if (!e && storage_failing_ == "storage_unavailable") storage_worked();
                             done(answer(e ? std::optional<std::string>(e->code()) : storage_failing_));
                         },
                         /*write=*/false);
    }
    if (path == "/metrics.json") return done(HttpReply{200, "application/json", metrics_json(now).dump()});
    if (path == "/api/tournaments" || path.starts_with("/api/tournaments/"))  // from memory (hall_tournament.cpp)
        return done(tournament_http(path));
    if (path == "/api/fairplay")  // the operator's (hall_fairplay.cpp)
        return fairplay_get(q == std::string_view::npos ? std::string_view() : target.substr(q + 1), token, std::move(done));
    if (analysis_path(path))  // hall_analysis.cpp
        return analysis_get(path, q == std::string_view::npos ? std::string_view() : target.substr(q + 1), address, token,
                            std::move(done));
    auto reply = std::make_shared<std::optional<HttpReply>>();
    const std::string_view query = q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
    on_writer("read",
              [path = std::string(path), query = std::string(query), token, now, reply](Storage& s) {
                  *reply = api_get(s, path, query, token, now);
              },
              [reply, done = std::move(done)](const std::optional<StorageError>& e) {
                  if (e) done(HttpReply{503, "application/json", json{{"error", "storage_unavailable"}, {"code", e->code()}}.dump()});
                  else if (*reply) done(std::move(**reply));
                  else done(HttpReply{404, "application/json", R"({"error":"not_found"})"});
              },
              /*write=*/false);
}

std::optional<std::string> Hall::viewer_of(Storage& storage, std::string_view token, Millis now) {
    if (token.empty()) return std::nullopt;
    const auto owner = storage.token_owner(token, now);
    return owner ? std::optional<std::string>(owner->name) : std::nullopt;
}

std::optional<HttpReply> Hall::api_get(Storage& storage, std::string_view path, std::string_view query,
                                       std::string_view token, Millis now) {
    const auto viewer = [&] { return viewer_of(storage, token, now); };
    if (path == "/api/leaderboard") return HttpReply{200, "application/json", storage.leaderboard().dump()};
    if (path == "/api/matches") return match_list(storage, query);
    constexpr std::string_view kMatches = "/api/matches/";
    if (path.starts_with(kMatches)) {
        const std::string id = url_decode(path.substr(kMatches.size()));
        // A private table's match: its players only (anyone else is told it does not exist).
        if (storage.match_readable(id, viewer()))
            if (auto reply = match_with_result(storage, id)) return reply;
        return HttpReply{404, "application/json", R"({"error":"no_such_match"})"};
    }
    constexpr std::string_view kPlayers = "/api/players/";
    if (path.starts_with(kPlayers) && path.ends_with("/matches")) {
        const auto rest = path.substr(kPlayers.size(), path.size() - kPlayers.size() - std::string_view("/matches").size());
        // Names are stored in NFC: a decomposed spelling in the URL finds the same player.
        std::string name = url_decode(rest);
        if (const NameResult n = normalize_name(name); n.name) name = n.name->text;
        return HttpReply{200, "application/json", storage.player_matches(name, viewer() == name).dump()};
    }
    if (path.starts_with(kPlayers) && path.find('/', kPlayers.size()) == std::string_view::npos) {
        // A player's profile (issue 15, docs/protocol.md "Profiles"; sqlite_profiles.cpp, postgres_profiles.cpp).
        std::string name = url_decode(path.substr(kPlayers.size()));
        if (const NameResult n = normalize_name(name); n.name) name = n.name->text;
        if (auto profile = storage.player_profile(name)) return json_reply(200, *profile);
        return HttpReply{404, "application/json", R"({"error":"no_such_player"})"};
    }
    if (path.starts_with("/api/")) return HttpReply{404, "application/json", R"({"error":"not_found"})"};
    return std::nullopt;
}

}  // namespace tarneeb::server
