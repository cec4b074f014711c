// The home and the loops (shard.hpp): the hall's sockets sent to each connection's loop, the
// sessions' messages and HTTP API requests sent to the hall on loop 0, the hall and cluster
// node built.
#include "shard.hpp"

#include <spdlog/spdlog.h>

#include "tarneeb/net/prometheus.hpp"

#include "ws_session.hpp"

namespace tarneeb::server::transport {

namespace {
/// What open_storage opens: the PostgreSQL URL (--postgres), else the SQLite path (--db).
const std::string& store_spec(const ServeConfig& cfg) { return cfg.postgres.empty() ? cfg.db : cfg.postgres; }

void log_line(bool error, const std::string& line) {
    if (error) spdlog::error("{}", line);
    else spdlog::warn("{}", line);
}
}  // namespace

Home::Home(net::io_context& io, const ServeConfig& cfg, BotFactory bots, std::unique_ptr<ClusterLink> link)
    : ioc(io), storage(open_storage(store_spec(cfg), cfg.full_sync)),
      reads(store_spec(cfg) == ":memory:" ? nullptr : open_storage(store_spec(cfg), cfg.full_sync)),
      hall(*storage, std::move(bots), cfg.hall,
           Outbox{[this](ConnId c, std::string text) { send(c, std::move(text)); },
                  [this](ConnId c, int code, std::string reason) { close(c, code, std::move(reason)); },
                  log_line,
                  // The writer and bot threads hand their results to loop 0.
                  [this](std::function<void()> job) { net::post(ioc, std::move(job)); }},
           reads.get()) {
    if (!link) return;
    // The node's own connection to the store, for its scan of tables no node runs.
    cluster = std::make_unique<ClusterNode>(
        ClusterConfig{}, std::move(link), hall, open_storage(cfg.postgres, cfg.full_sync),
        Outbox{nullptr, nullptr, log_line, [this](std::function<void()> job) { net::post(ioc, std::move(job)); }});
}

void Home::open(ConnId id, const std::string& address) { hall.open(id, address, unix_ms()); }

void Home::message(ConnId id, std::string_view text) { hall.message(id, text, unix_ms()); }

void Home::closed(ConnId id) { hall.closed(id, unix_ms()); }

Shared& Home::loop_of(ConnId c) const { return *loops[(c - 1) % loops.size()]; }

void Home::send(ConnId c, std::string text) {
    if (stopped) return;
    Shared& loop = loop_of(c);
    if (loop.index == 0) return loop.send(c, std::move(text));
    net::post(loop.ioc, [&loop, c, text = std::move(text)]() mutable { loop.send(c, std::move(text)); });
}

void Home::close(ConnId c, int code, std::string reason) {
    if (stopped) return;
    Shared& loop = loop_of(c);
    if (loop.index == 0) return loop.close(c, code, std::move(reason));
    net::post(loop.ioc, [&loop, c, code, reason = std::move(reason)]() mutable { loop.close(c, code, std::move(reason)); });
}

void Shared::open(ConnId id, const std::string& address) {
    if (home.stopped) return;
    if (index == 0) return home.open(id, address);
    net::post(home.ioc, [h = &home, id, address] { h->open(id, address); });
}

void Shared::message(ConnId id, std::string_view text) {
    if (home.stopped) return;
    if (index == 0) return home.message(id, text);
    net::post(home.ioc, [h = &home, id, text = std::string(text)] { h->message(id, text); });
}

void Shared::closed(ConnId id) {
    if (home.stopped) return;
    if (index == 0) return home.closed(id);
    net::post(home.ioc, [h = &home, id] { h->closed(id); });
}

void Shared::send(ConnId c, std::string text) {
    auto it = sessions.find(c);
    if (it == sessions.end()) return;
    if (auto s = it->second.lock()) s->send(std::move(text));
}

void Shared::close(ConnId c, int code, std::string reason) {
    auto it = sessions.find(c);
    if (it == sessions.end()) return;
    if (auto s = it->second.lock()) s->close(code, std::move(reason));
}

bool Shared::api_path(std::string_view target) {
    return target.substr(0, target.find('?')) == "/metrics" || Hall::http_path(target);
}

void Shared::http_get(const std::string& target, const std::string& address, const std::string& token,
                      std::function<void(HttpReply)> done) {
    const std::string path = target.substr(0, target.find('?'));
    if (path == "/metrics")
        return http_get("/metrics.json", address, token, [done = std::move(done)](HttpReply r) {
            if (r.status == 200)
                if (const auto m = nlohmann::json::parse(r.body, nullptr, false); !m.is_discarded())
                    r = HttpReply{200, std::string(kPrometheusContentType), prometheus_text(m)};
            done(std::move(r));
        });
    if (index == 0) return home.hall.http_get(target, unix_ms(), std::move(done), address, token);
    // The reply comes back to this loop, where the session lives.
    auto here = [this, done = std::move(done)](HttpReply r) mutable {
        net::post(ioc, [done = std::move(done), r = std::move(r)]() mutable { done(std::move(r)); });
    };
    net::post(home.ioc, [h = &home, target, address, token, here = std::move(here)]() mutable {
        h->hall.http_get(target, unix_ms(), std::move(here), address, token);
    });
}

}  // namespace tarneeb::server::transport
