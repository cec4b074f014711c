// The hall, its HTTP API: /healthz, /metrics and the
// /api/... reads (on the writer thread, never on the hall's) (the hall's other roles: hall.cpp, hall_admission.cpp, hall_lobby.cpp,
// hall_http.cpp, hall_metrics.cpp; include/tarneeb/server/hall.hpp says what the hall is).
#include "tarneeb/server/hall.hpp"
#include "tarneeb/server/names.hpp"

namespace tarneeb::server {

using nlohmann::json;

namespace {

std::string url_decode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size()) {
            auto hex = [](char ch) -> int {
                if (ch >= '0' && ch <= '9') return ch - '0';
                if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
                if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
                return -1;
            };
            const int hi = hex(s[i + 1]), lo = hex(s[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out.push_back(static_cast<char>(hi * 16 + lo));
                i += 2;
                continue;
            }
        }
        out.push_back(s[i] == '+' ? ' ' : s[i]);
    }
    return out;
}

}  // namespace

bool Hall::http_path(std::string_view target) {
    const std::string_view path = target.substr(0, target.find('?'));
    return path == "/healthz" || path == "/metrics" || path.starts_with("/api/");
}

void Hall::http_get(std::string_view target, Millis now, std::function<void(HttpReply)> done) {
    now_ = std::max(now_, now);
    const auto q = target.find('?');
    const std::string_view path = target.substr(0, q);
    if (path == "/healthz") {
        if (storage_failing_) return done(HttpReply{503, "application/json", json{{"status", "storage_unavailable"}, {"code", *storage_failing_}}.dump()});
        return done(HttpReply{200, "application/json", R"({"status":"ok"})"});
    }
    if (path == "/metrics") return done(HttpReply{200, "application/json", metrics_json(now).dump()});
    if (analysis_path(path))  // hall_analysis.cpp
        return analysis_get(path, q == std::string_view::npos ? std::string_view() : target.substr(q + 1), std::move(done));
    auto reply = std::make_shared<std::optional<HttpReply>>();
    on_writer("read", [path = std::string(path), reply](Storage& s) { *reply = api_get(s, path); },
              [reply, done = std::move(done)](const std::optional<StorageError>& e) {
                  if (e) done(HttpReply{503, "application/json", json{{"error", "storage_unavailable"}, {"code", e->code()}}.dump()});
                  else if (*reply) done(std::move(**reply));
                  else done(HttpReply{404, "application/json", R"({"error":"not_found"})"});
              },
              /*write=*/false);
}

std::optional<HttpReply> Hall::api_get(Storage& storage, std::string_view path) {
    if (path == "/api/leaderboard") return HttpReply{200, "application/json", storage.leaderboard().dump()};
    constexpr std::string_view kMatches = "/api/matches/";
    if (path.starts_with(kMatches)) {
        const std::string id = url_decode(path.substr(kMatches.size()));
        if (auto rec = storage.match_record(id)) return HttpReply{200, "application/json", *rec};
        return HttpReply{404, "application/json", R"({"error":"no_such_match"})"};
    }
    constexpr std::string_view kPlayers = "/api/players/";
    if (path.starts_with(kPlayers) && path.ends_with("/matches")) {
        const auto rest = path.substr(kPlayers.size(), path.size() - kPlayers.size() - std::string_view("/matches").size());
        // Names are stored in NFC: a decomposed spelling in the URL finds the same player.
        std::string name = url_decode(rest);
        if (const NameResult n = normalize_name(name); n.name) name = n.name->text;
        return HttpReply{200, "application/json", storage.player_matches(name).dump()};
    }
    if (path.starts_with("/api/")) return HttpReply{404, "application/json", R"({"error":"not_found"})"};
    return std::nullopt;
}

}  // namespace tarneeb::server
