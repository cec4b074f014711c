// A shard's shared state (shard.hpp): the hall's sockets (send, close), the shard's hall and
// cluster node built, and the HTTP API requests routed to the halls — with several shards
// /healthz and /metrics.json gathered from every shard's hall and combined into one reply, and
// /metrics written from that in the Prometheus text format.
#include "shard.hpp"

#include <algorithm>
#include <cstdint>

#include <spdlog/spdlog.h>

#include "tarneeb/net/prometheus.hpp"

#include "ws_session.hpp"

namespace tarneeb::server::transport {

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

namespace {
void log_line(bool error, const std::string& line) {
    if (error) spdlog::error("{}", line);
    else spdlog::warn("{}", line);
}

/// One reply for the process from every shard's reply to /healthz or /metrics.json (replies[0]:
/// the home shard's). /healthz: the home's when every shard answers 200, else the first other.
/// /metrics.json: the home's (its connections are every client's: each is opened there first),
/// with the shards' tables, actions, storage errors, write queues, timers and journal batches
/// added up, the highest of
/// their latency percentiles, the first storage error, and every shard's own in "shards".
HttpReply combine_replies(std::string_view path, std::vector<HttpReply> replies) {
    if (path == "/healthz") {
        for (auto& r : replies)
            if (r.status != 200) return std::move(r);
        return std::move(replies.front());
    }
    std::vector<nlohmann::json> each;
    for (const auto& r : replies) each.push_back(nlohmann::json::parse(r.body, nullptr, false));
    nlohmann::json m = each.front();
    if (!m.is_object()) return std::move(replies.front());
    for (const char* key : {"tables", "tables_playing", "actions_total", "actions_per_second", "storage_errors", "write_queue"}) {
        double sum = 0;
        for (const auto& e : each) sum += e.is_object() ? e.value(key, 0.0) : 0.0;
        if (m[key].is_number_integer()) m[key] = static_cast<std::int64_t>(sum);
        else m[key] = sum;
    }
    for (const auto& e : each) {
        if (!e.is_object()) continue;
        for (const char* key : {"p50", "p90", "p99", "max"})
            m["latency_ms"][key] = std::max(m["latency_ms"].value(key, 0.0), e.value("latency_ms", nlohmann::json::object()).value(key, 0.0));
        if (m.value("storage", "ok") == "ok" && e.value("storage", "ok") != "ok") m["storage"] = e["storage"];
    }
    // The tables' timers: every shard's heap entries and late ones together.
    if (m.contains("timers") && m["timers"].is_object())
        for (const char* key : {"pending", "late"}) {
            std::int64_t sum = 0;
            for (const auto& e : each)
                if (e.is_object()) sum += e.value("timers", nlohmann::json::object()).value(key, std::int64_t{0});
            m["timers"][key] = sum;
        }
    // Group commit: the shards' batches together.
    if (m.contains("journal") && m["journal"].is_object()) {
        std::int64_t batches = 0, writes = 0, most = 0;
        for (const auto& e : each) {
            const nlohmann::json j = e.is_object() ? e.value("journal", nlohmann::json::object()) : nlohmann::json::object();
            batches += j.value("batches", std::int64_t{0});
            writes += j.value("writes", std::int64_t{0});
            most = std::max(most, j.value("max_batch", std::int64_t{0}));
        }
        m["journal"]["batches"] = batches;
        m["journal"]["writes"] = writes;
        m["journal"]["writes_per_batch"] = batches ? static_cast<double>(writes) / static_cast<double>(batches) : 0.0;
        m["journal"]["max_batch"] = most;
    }
    // Cluster mode: each shard is a node; its counters are added up ("nodes": the home's view).
    if (m.contains("cluster") && m["cluster"].is_object())
        for (std::size_t i = 1; i < each.size(); ++i) {
            const nlohmann::json shard = each[i].is_object() ? each[i].value("cluster", nlohmann::json::object()) : nlohmann::json::object();
            for (const auto& [key, v] : shard.items())
                if (v.is_number() && key != "nodes" && key != "shards" && m["cluster"][key].is_number())
                    m["cluster"][key] = v.is_number_float() || m["cluster"][key].is_number_float()
                                            ? nlohmann::json(m["cluster"][key].get<double>() + v.get<double>())
                                            : nlohmann::json(m["cluster"][key].get<std::int64_t>() + v.get<std::int64_t>());
        }
    m["shards"] = each;
    return HttpReply{200, "application/json", m.dump()};
}
}  // namespace

Shared::Shared(net::io_context& io, const ServeConfig& cfg, AddressBook& book, BotFactory bots, std::unique_ptr<ClusterLink> link)
    : ioc(io), config(cfg), addresses(book), storage(open_storage(cfg.postgres.empty() ? cfg.db : cfg.postgres, cfg.full_sync)),
      hall(*storage, std::move(bots), cfg.hall,
           Outbox{[this](ConnId c, std::string text) {
                      if (cluster) cluster->hall_send(c, std::move(text));
                      else send(c, std::move(text));
                  },
                  [this](ConnId c, int code, std::string reason) {
                      if (cluster) cluster->hall_close(c, code, std::move(reason));
                      else close(c, code, std::move(reason));
                  },
                  log_line,
                  // The writer and bot threads hand their results to the event loop.
                  [this](std::function<void()> job) { net::post(ioc, std::move(job)); }}) {
    if (!link) return;
    ClusterConfig cc;
    if (cfg.redis.empty()) cc.refresh = std::chrono::milliseconds(250);  // shards: memory, not the network
    // A cluster node's own connection to the store, for its scan of tables no node runs.
    auto scan = cfg.redis.empty() ? nullptr : open_storage(cfg.postgres, cfg.full_sync);
    cluster = std::make_unique<ClusterNode>(
        std::move(cc), std::move(link), hall, std::move(scan),
        Outbox{[this](ConnId c, std::string text) { send(c, std::move(text)); },
               [this](ConnId c, int code, std::string reason) { close(c, code, std::move(reason)); }, log_line,
               [this](std::function<void()> job) { net::post(ioc, std::move(job)); }});
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
    if (shards.size() <= 1) return hall.http_get(target, unix_ms(), std::move(done), address, token);
    // Each reply comes back to this shard's loop, where the session lives.
    auto here = [this, done = std::move(done)](HttpReply r) mutable {
        net::post(ioc, [done = std::move(done), r = std::move(r)]() mutable { done(std::move(r)); });
    };
    if (path != "/healthz" && path != "/metrics.json") {
        Shared* home = shards.front();
        return net::post(home->ioc, [home, target, address, token, here = std::move(here)]() mutable {
            home->hall.http_get(target, unix_ms(), std::move(here), address, token);
        });
    }
    struct Gather {
        std::mutex mutex;
        std::vector<HttpReply> replies;
        std::size_t missing;
        std::function<void(HttpReply)> done;
    };
    auto g = std::make_shared<Gather>();
    g->replies.resize(shards.size());
    g->missing = shards.size();
    g->done = std::move(here);
    for (std::size_t i = 0; i < shards.size(); ++i) {
        Shared* sh = shards[i];
        net::post(sh->ioc, [sh, g, i, target, path, address, token] {
            sh->hall.http_get(target, unix_ms(), [g, i, path](HttpReply r) {
                std::unique_lock lock(g->mutex);
                g->replies[i] = std::move(r);
                if (--g->missing > 0) return;
                auto replies = std::move(g->replies);
                lock.unlock();
                g->done(combine_replies(path, std::move(replies)));
            }, address, token);
        });
    }
}
}  // namespace tarneeb::server::transport
