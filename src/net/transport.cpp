// The Beast transport of `tarneeb serve`: one listener, one HTTP session per TCP connection,
// upgraded to a WebSocket session on GET /ws (the roles of Beast's advanced_server example).
//
// Threading: one io_context per shard (`--threads N`, docs/scaling.md "Every core"), each run
// by one thread with a hall of its own. A connection, and every table, lives on one shard's
// thread, so no strand or lock is needed (the hall's database writer and bot threads post
// their results to it: nothing slow runs on it) and the order of actions at a table is the
// order its thread handles them (which makes the timer race exact: an action and the timeout
// are two handlers on the same thread; whichever runs first wins and the other one is stale).
// The listener (on shard 0) gives connections to the shards in turn; with several shards a
// ClusterNode with a LocalLink sits between each shard's sessions and its hall and relays a
// connection to the shard running its table (cluster_link.hpp), as nodes of a cluster do.
//
// Limits: request body 8 KiB, header 8 KiB, HTTP timeout 30 s; WebSocket message at most
// HallConfig::max_message_bytes (Beast closes with 1009 above it), idle timeout, a
// single-writer send queue per connection capped in frames and bytes (a slow reader is cut off
// at once, never buffered without bound; the frame in flight is owned by its write handler),
// origin check, connection cap, per-address connection cap (Hall::admits), static files only
// inside --static (resolve_static). Tokens never reach a log line: only connection ids,
// addresses, names and error codes are logged.
#include "tarneeb/cluster/cluster_node.hpp"
#include "tarneeb/net/serve.hpp"
#include "tarneeb/net/static_files.hpp"

#include <sys/resource.h>

#include <chrono>
#include <csignal>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>

#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <spdlog/spdlog.h>

namespace tarneeb::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

Millis unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string_view mime_type(std::string_view path) {
    const auto dot = path.rfind('.');
    const std::string_view ext = dot == std::string_view::npos ? "" : path.substr(dot);
    if (ext == ".html" || ext == ".htm") return "text/html; charset=utf-8";
    if (ext == ".js" || ext == ".mjs") return "text/javascript";
    if (ext == ".css") return "text/css";
    if (ext == ".json") return "application/json";
    if (ext == ".svg") return "image/svg+xml";
    if (ext == ".png") return "image/png";
    if (ext == ".ico") return "image/x-icon";
    if (ext == ".wasm") return "application/wasm";
    if (ext == ".woff2") return "font/woff2";
    return "application/octet-stream";
}

class WsSession;

/// Open connections by peer address, for the whole process (every shard): HTTP sessions (TCP
/// connections not upgraded) and WebSockets, each kind at most `limit` per address
/// (HallConfig::max_connections_per_address), so that silent sockets from one address cannot
/// hold every descriptor, whichever shard they reached. Thread-safe (taken per connection,
/// never per message).
class AddressBook {
public:
    enum Kind { http_kind, ws_kind };
    explicit AddressBook(int limit) : limit_(limit) {}
    /// Counts one more connection of `kind` from `address`; false (nothing counted) when it
    /// has `limit` already.
    bool add(Kind kind, const std::string& address) {
        std::lock_guard lock(mutex_);
        int& n = counts_[kind][address];
        if (n >= limit_) return false;
        ++n;
        return true;
    }
    void remove(Kind kind, const std::string& address) {
        std::lock_guard lock(mutex_);
        auto& m = counts_[kind];
        if (auto it = m.find(address); it != m.end() && --it->second <= 0) m.erase(it);
    }

private:
    const int limit_;
    std::mutex mutex_;
    std::unordered_map<std::string, int> counts_[2];
};

/// What every session shares: the hall, the sessions by connection id, the limits.
struct Shared {
    net::io_context& ioc;
    const ServeConfig config;  ///< this shard's share of the limits (shard_config)
    AddressBook& addresses;            ///< the process's, shared by every shard
    std::unique_ptr<Storage> storage;  ///< open_storage: PostgreSQL (--postgres) or SQLite (--db)
    Hall hall;
    /// Between the sessions and the hall (cluster_node.hpp) in cluster mode (--redis) and when
    /// the process runs several shards (--threads); else null.
    std::unique_ptr<ClusterNode> cluster;
    std::unordered_map<ConnId, std::weak_ptr<WsSession>> sessions;
    ConnId next_id = 1;
    std::size_t http_sessions = 0;
    /// Every shard of the process, shard 0 (the home) first; set before the loops run.
    std::vector<Shared*> shards;

    /// `link`: the shard's or node's link (cluster_link.hpp), or null for one loop alone.
    Shared(net::io_context& io, const ServeConfig& cfg, AddressBook& book, BotFactory bots, std::unique_ptr<ClusterLink> link);

    // What a session tells the server: to the cluster node in cluster mode, else to the hall.
    void open(ConnId id, const std::string& address) {
        if (cluster) cluster->open(id, address, unix_ms());
        else hall.open(id, address, unix_ms());
    }
    void message(ConnId id, std::string_view text) {
        if (cluster) cluster->message(id, text, unix_ms());
        else hall.message(id, text, unix_ms());
    }
    void closed(ConnId id) {
        if (cluster) cluster->closed(id, unix_ms());
        else hall.closed(id, unix_ms());
    }
    /// Answers an HTTP API request (Hall::http_path) on this shard's loop. With several
    /// shards: /healthz and /metrics from every shard's hall (combine_replies), the rest from
    /// the home shard's (its analysis queue and per-address shares are the process's).
    void http_get(const std::string& target, const std::string& address, const std::string& token,
                  std::function<void(HttpReply)> done);
    /// The sockets: the hall's answers (through the cluster node in cluster mode).
    void send(ConnId c, std::string text);
    void close(ConnId c, int code, std::string reason);
};

class WsSession : public std::enable_shared_from_this<WsSession> {
public:
    WsSession(tcp::socket&& socket, Shared& shared, ConnId id, std::string remote, std::string address)
        : ws_(std::move(socket)), shared_(shared), id_(id), remote_(std::move(remote)), address_(std::move(address)) {}

    void start(http::request<http::string_body> req) {
        websocket::stream_base::timeout t{};
        t.handshake_timeout = std::chrono::seconds(10);
        t.idle_timeout = std::chrono::seconds(shared_.config.idle_seconds);
        t.keep_alive_pings = false;
        ws_.set_option(t);
        // Beast fails a connection abruptly above its limit; up to 4x the protocol's limit the
        // hall closes it cleanly with 1009 (docs/protocol.md "Framing").
        ws_.read_message_max(4 * shared_.config.hall.max_message_bytes);
        ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
            res.set(http::field::server, "tarneeb");
        }));
        ws_.async_accept(req, [self = shared_from_this()](beast::error_code ec) { self->on_accept(ec); });
    }

    /// Queues one text frame. A connection whose queue would pass --max-queue (frames) or
    /// --max-queue-bytes (one frame is always accepted into an empty queue) has fallen behind:
    /// it is closed at once (the socket is shut, no close handshake behind the data it cannot
    /// take), never buffered without bound.
    void send(std::string text) {
        if (closing_) return;
        if (queue_.size() >= shared_.config.max_queue ||
            (!queue_.empty() && queued_bytes_ + text.size() > shared_.config.max_queue_bytes)) {
            spdlog::warn("conn={} event=send_queue_full frames={} bytes={} action=close", id_, queue_.size(), queued_bytes_);
            abort();
            return;
        }
        queued_bytes_ += text.size();
        queue_.push_back(std::make_shared<const std::string>(std::move(text)));
        if (!writing_) write_next();
    }

    /// The hall's close (rate limit, malformed messages...): the frames already queued are sent
    /// (they are bounded, see send), then the close handshake; a peer that does not take them
    /// within kCloseSeconds is cut off.
    void close(int code, std::string reason) {
        if (closing_) return;
        closing_ = true;
        close_code_ = code;
        close_reason_ = std::move(reason);
        spdlog::info("conn={} event=close code={} reason=\"{}\"", id_, code, close_reason_);
        close_timer_.expires_after(std::chrono::seconds(kCloseSeconds));
        close_timer_.async_wait([weak = weak_from_this()](beast::error_code ec) {
            if (ec) return;
            if (auto self = weak.lock()) self->cut();
        });
        if (!writing_) start_close();
    }

private:
    void on_accept(beast::error_code ec) {
        if (ec) {
            spdlog::info("conn={} event=ws_accept_failed error=\"{}\"", id_, ec.message());
            return;
        }
        shared_.sessions[id_] = weak_from_this();
        spdlog::info("conn={} event=open remote={}", id_, remote_);
        shared_.open(id_, address_);  // over the per-address limit: closed at once
        read();
    }

    void read() {
        ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
    }

    void on_read(beast::error_code ec) {
        if (ec) {
            if (ec == websocket::error::message_too_big) spdlog::info("conn={} event=message_too_big", id_);
            else if (ec != websocket::error::closed) spdlog::info("conn={} event=read_end error=\"{}\"", id_, ec.message());
            finish();
            return;
        }
        const auto data = buffer_.data();
        const std::string_view text(static_cast<const char*>(data.data()), data.size());
        try {
            shared_.message(id_, ws_.got_text() ? text : std::string_view("binary frame"));
        } catch (const std::exception& e) {
            // A bug handling one message must not take every table down: this connection goes.
            spdlog::error("conn={} event=internal_error error=\"{}\"", id_, e.what());
            close(1011, "internal error");
        }
        buffer_.consume(buffer_.size());
        read();
    }

    void write_next() {
        writing_ = true;
        // The frame in flight is owned by the handler too: whatever happens to the queue
        // meanwhile (abort clears it), Beast reads from live memory until the write completes.
        auto frame = queue_.front();
        ws_.text(true);
        ws_.async_write(net::buffer(*frame), [self = shared_from_this(), frame](beast::error_code ec, std::size_t) {
            self->on_write(ec);
        });
    }

    void on_write(beast::error_code ec) {
        writing_ = false;
        if (!queue_.empty()) {
            queued_bytes_ -= queue_.front()->size();
            queue_.pop_front();
        }
        if (ec || cut_) {
            queue_.clear();
            queued_bytes_ = 0;
            return;
        }
        if (!queue_.empty()) write_next();
        else if (closing_) start_close();
    }

    void start_close() {
        if (close_started_ || cut_) return;
        close_started_ = true;
        ws_.async_close(websocket::close_reason(static_cast<websocket::close_code>(close_code_), close_reason_),
                        [self = shared_from_this()](beast::error_code) { self->close_timer_.cancel(); });
    }

    /// Closes at once: pending frames are dropped, the socket is shut and closed, every pending
    /// operation ends with an error (the read's ends the session: finish()).
    void abort() {
        closing_ = true;
        cut();
    }

    void cut() {
        if (cut_) return;
        cut_ = true;
        close_timer_.cancel();
        // Frames not yet handed to Beast go; the one in flight (if any) stays alive in its handler.
        if (writing_ && !queue_.empty()) {
            auto front = queue_.front();
            queue_.clear();
            queue_.push_back(std::move(front));
            queued_bytes_ = queue_.front()->size();
        } else {
            queue_.clear();
            queued_bytes_ = 0;
        }
        auto& sock = beast::get_lowest_layer(ws_).socket();
        beast::error_code ignored;
        sock.shutdown(tcp::socket::shutdown_both, ignored);
        beast::get_lowest_layer(ws_).close();
    }

    void finish() {
        if (finished_) return;
        finished_ = true;
        shared_.addresses.remove(AddressBook::ws_kind, address_);  // counted at the upgrade
        shared_.sessions.erase(id_);
        shared_.closed(id_);
        spdlog::info("conn={} event=closed", id_);
    }

public:
    ~WsSession() { finish(); }

private:
    websocket::stream<beast::tcp_stream> ws_;
    beast::flat_buffer buffer_;
    Shared& shared_;
    ConnId id_;
    std::string remote_;   ///< address:port, for the log
    std::string address_;  ///< the peer's IP address (the hall's per-address limits)
    std::deque<std::shared_ptr<const std::string>> queue_;  ///< front: the frame in flight while writing_
    std::size_t queued_bytes_ = 0;                          ///< bytes of the frames in queue_
    bool writing_ = false;         ///< an async_write is in flight
    bool closing_ = false;         ///< close() or abort() was called: no more frames are queued
    bool close_started_ = false;   ///< the close handshake was started
    bool cut_ = false;             ///< the socket was shut (abort, or the close took too long)
    int close_code_ = 1000;
    std::string close_reason_;
    net::steady_timer close_timer_{ws_.get_executor()};
    static constexpr int kCloseSeconds = 5;
    bool finished_ = false;
};

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

/// One reply for the process from every shard's reply to /healthz or /metrics (replies[0]:
/// the home shard's). /healthz: the home's when every shard answers 200, else the first other.
/// /metrics: the home's (its connections are every client's: each is opened there first),
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

void Shared::http_get(const std::string& target, const std::string& address, const std::string& token,
                      std::function<void(HttpReply)> done) {
    if (shards.size() <= 1) return hall.http_get(target, unix_ms(), std::move(done), address, token);
    const std::string path = target.substr(0, target.find('?'));
    // Each reply comes back to this shard's loop, where the session lives.
    auto here = [this, done = std::move(done)](HttpReply r) mutable {
        net::post(ioc, [done = std::move(done), r = std::move(r)]() mutable { done(std::move(r)); });
    };
    if (path != "/healthz" && path != "/metrics") {
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

class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    HttpSession(tcp::socket&& socket, Shared& shared, std::string address, std::string remote)
        : stream_(std::move(socket)), shared_(shared), remote_(std::move(remote)), address_(std::move(address)) {
        ++shared_.http_sessions;  // counted in the AddressBook by the Listener
    }
    ~HttpSession() {
        --shared_.http_sessions;
        shared_.addresses.remove(AddressBook::http_kind, address_);
    }

    void run() { read(); }

private:
    void read() {
        parser_.emplace();
        parser_->body_limit(8 * 1024);
        parser_->header_limit(8 * 1024);
        stream_.expires_after(std::chrono::seconds(30));
        http::async_read(stream_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            self->on_read(ec);
        });
    }

    bool origin_allowed(const http::request<http::string_body>& req) const {
        const auto origin = req[http::field::origin];
        if (origin.empty()) return true;  // not a browser
        const auto host = req[http::field::host];
        const std::string o(origin);
        if (o == "http://" + std::string(host) || o == "https://" + std::string(host)) return true;
        for (const auto& allowed : shared_.config.origins)
            if (o == allowed) return true;
        return false;
    }

    void on_read(beast::error_code ec) {
        if (ec == http::error::end_of_stream || ec == beast::error::timeout) {
            stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
            return;
        }
        if (ec) return;
        auto req = parser_->release();
        if (websocket::is_upgrade(req)) {
            if (req.target() != "/ws") return respond(req, 404, "application/json", R"({"error":"not_found"})");
            if (!origin_allowed(req)) {
                spdlog::warn("event=origin_refused remote={} origin=\"{}\"", remote_, std::string(req[http::field::origin]));
                return respond(req, 403, "application/json", R"({"error":"origin"})");
            }
            if (shared_.sessions.size() >= shared_.config.max_connections)
                return respond(req, 503, "application/json", R"({"error":"too_many_connections"})");
            if (!shared_.addresses.add(AddressBook::ws_kind, address_)) {
                spdlog::warn("event=address_refused remote={} reason=too_many_connections", remote_);
                return respond(req, 503, "application/json", R"({"error":"too_many_connections","scope":"address"})");
            }
            stream_.expires_never();
            const ConnId id = shared_.next_id++;
            std::make_shared<WsSession>(stream_.release_socket(), shared_, id, remote_, address_)->start(std::move(req));
            return;
        }
        if (req.method() != http::verb::get && req.method() != http::verb::head)
            return respond(req, 405, "application/json", R"({"error":"method"})");
        const std::string target(req.target());
        if (Hall::http_path(target)) {
            // Answered later (a database read on the writer thread); this session waits for it.
            // `Authorization: Bearer <token>`: who asks (a private table's matches are its
            // players'); anything else there counts as no token. Never logged.
            std::string token;
            if (const std::string_view auth = req[http::field::authorization];
                auth.starts_with("Bearer ") && auth.size() <= 7 + 128)
                token = auth.substr(7);
            auto request = std::make_shared<http::request<http::string_body>>(std::move(req));
            shared_.http_get(target, address_, token, [self = shared_from_this(), request](HttpReply reply) {
                self->respond(*request, static_cast<unsigned>(reply.status), reply.content_type, std::move(reply.body));
            });
            return;
        }
        serve_file(req, target);
    }

    /// A file of --static: only a regular file that resolves inside the root, never the
    /// database or its companions (resolve_static); anything else is 404.
    void serve_file(const http::request<http::string_body>& req, const std::string& target) {
        const auto path = resolve_static(shared_.config.static_dir, target, {shared_.config.db});
        std::ifstream in;
        if (path) in.open(*path, std::ios::binary);
        if (!path || !in) return respond(req, 404, "application/json", R"({"error":"not_found"})");
        std::ostringstream body;
        body << in.rdbuf();
        respond(req, 200, std::string(mime_type(path->string())), body.str());
    }

    void respond(const http::request<http::string_body>& req, unsigned status, const std::string& type, std::string body) {
        auto res = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(status), req.version());
        res->set(http::field::server, "tarneeb");
        res->set(http::field::content_type, type);
        res->keep_alive(req.keep_alive());
        if (req.method() != http::verb::head) res->body() = std::move(body);
        res->prepare_payload();
        http::async_write(stream_, *res, [self = shared_from_this(), res](beast::error_code ec, std::size_t) {
            if (ec) return;
            if (!res->keep_alive()) {
                beast::error_code ignored;
                self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
                return;
            }
            self->read();
        });
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    Shared& shared_;
    std::optional<http::request_parser<http::string_body>> parser_;
    std::string remote_ = "?";
    std::string address_ = "?";
};

/// Accepts TCP connections on shard 0's loop and gives them to the shards in turn; each
/// connection lives on its shard's loop from then on.
class Listener : public std::enable_shared_from_this<Listener> {
public:
    /// `home`: shard 0, whose `shards` lists every shard.
    Listener(tcp::acceptor acceptor, const Shared& home) : acceptor_(std::move(acceptor)), shards_(home.shards) {}
    void run() { accept(); }

private:
    void accept() {
        Shared& shard = *shards_[next_++ % shards_.size()];
        acceptor_.async_accept(shard.ioc, [self = shared_from_this(), &shard](beast::error_code ec, tcp::socket socket) {
            if (!ec) {
                // On the shard's loop: its sessions and counts are its own.
                net::post(shard.ioc, [&shard, socket = std::move(socket)]() mutable { admit(shard, std::move(socket)); });
            } else if (ec == net::error::operation_aborted) {
                return;
            }
            self->accept();
        });
    }
    static void admit(Shared& shard, tcp::socket socket) {
        beast::error_code ec;
        socket.set_option(tcp::no_delay(true), ec);
        std::string address = "?", remote = "?";
        if (const auto ep = socket.remote_endpoint(ec); !ec) {
            address = ep.address().to_string();
            remote = address + ":" + std::to_string(ep.port());
        }
        if (!shard.addresses.add(AddressBook::http_kind, address)) {
            spdlog::warn("event=address_refused remote={} reason=too_many_http_connections", remote);
            beast::error_code ignored;
            socket.shutdown(tcp::socket::shutdown_both, ignored);
            socket.close(ignored);
        } else {
            std::make_shared<HttpSession>(std::move(socket), shard, std::move(address), std::move(remote))->run();
        }
    }
    tcp::acceptor acceptor_;
    const std::vector<Shared*>& shards_;
    std::size_t next_ = 0;
};

/// Shard `i` of `n`'s settings: the process's limits shared out, its own seed.
ServeConfig shard_config(const ServeConfig& config, unsigned i, unsigned n) {
    ServeConfig c = config;
    if (n == 1) return c;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    c.max_connections = std::max<std::size_t>(1, config.max_connections / n);
    c.hall.max_tables = std::max(1, (config.hall.max_tables + static_cast<int>(n) - 1) / static_cast<int>(n));
    if (c.hall.bot_threads == 0) c.hall.bot_threads = std::max(1u, cores / n);
    if (c.hall.seed != 0) c.hall.seed += i;  // test-only deterministic deals, not the same on every shard
    if (!c.redis.empty()) c.node = config.node + "." + std::to_string(i);
    return c;
}

}  // namespace

int serve(const ServeConfig& config, BotFactory bots) {
    // A peer that vanishes must cost an error code on write, not the process.
    std::signal(SIGPIPE, SIG_IGN);
    // One descriptor per connection: use all the open files the hard limit allows.
    if (rlimit lim{}; getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        setrlimit(RLIMIT_NOFILE, &lim);
    }
    // Shards: one event loop each (docs/scaling.md "Every core"). An in-memory database is one
    // connection's, so it has one.
    unsigned n = config.threads ? config.threads : std::max(1u, std::thread::hardware_concurrency());
    if (config.postgres.empty() && config.db == ":memory:") n = 1;
    // Declared before the io_contexts so that they outlive the sessions the io_contexts own;
    // the shards' LocalCluster before the shards.
    AddressBook addresses(config.hall.max_connections_per_address);
    std::unique_ptr<LocalCluster> local;
    std::vector<std::unique_ptr<Shared>> shards;
    std::vector<std::unique_ptr<net::io_context>> iocs;
    // Logged without the URL (it may hold a password).
    const std::string store = config.postgres.empty() ? config.db : std::string("postgresql");
    try {
        if (!config.redis.empty() && config.postgres.empty())
            throw ClusterError("invalid_argument", "cluster mode (redis) needs a PostgreSQL store shared by every node");
        // A node whose Redis refuses its password (or cannot be reached) at start exits here,
        // before it listens, rather than run with /healthz alone saying so. (A Redis that goes
        // away later is waited for: the cluster's clients reconnect by themselves.)
        if (!config.redis.empty()) check_redis(parse_redis_url(config.redis));
        if (config.redis.empty() && n > 1) local = std::make_unique<LocalCluster>(n);
        // One count of the waiting-table limits for every shard: a limit holds for the process.
        const auto waiting_tables = std::make_shared<WaitingTables>();
        for (unsigned i = 0; i < n; ++i) {
            ServeConfig c = shard_config(config, i, n);
            c.hall.waiting_tables = waiting_tables;
            std::unique_ptr<ClusterLink> link;
            if (local) link = local->link(i);
            else if (!c.redis.empty()) {
                ClusterConfig cc;
                cc.redis = parse_redis_url(c.redis);
                cc.node = c.node;
                link = redis_link(cc);
            }
            iocs.push_back(std::make_unique<net::io_context>(1));
            shards.push_back(std::make_unique<Shared>(*iocs.back(), c, addresses, bots, std::move(link)));
        }
    } catch (const ClusterError& e) {
        spdlog::error("event=cluster_failed code={} error=\"{}\"", e.code(), e.what());
        return 1;
    } catch (const StorageError& e) {
        spdlog::error("event=db_open_failed code={} db={} error=\"{}\"", e.code(), store, e.what());
        return 1;
    } catch (const std::exception& e) {
        spdlog::error("event=db_open_failed code=storage_io db={} error=\"{}\"", store, e.what());
        return 1;
    }
    Shared& home = *shards.front();
    net::io_context& ioc = *iocs.front();
    int resumed = 0;
    try {
        // A cluster node resumes nothing itself: it takes over the tables no node runs (its
        // scan). Shards: the home shard resumes every table (the shards share one store).
        if (config.redis.empty()) resumed = home.hall.resume(unix_ms());
    } catch (const std::exception& e) {
        const auto* se = dynamic_cast<const StorageError*>(&e);
        spdlog::error("event=resume_failed code={} error=\"{}\"", se ? se->code() : std::string("storage_io"), e.what());
        return 1;
    }
    spdlog::info("event=resumed tables={} shards={}", resumed, n);

    beast::error_code ec;
    tcp::acceptor acceptor(ioc);
    const auto address = net::ip::make_address(config.address, ec);
    if (ec) {
        spdlog::error("event=bad_address address={}", config.address);
        return 1;
    }
    const tcp::endpoint ep{address, config.port};
    acceptor.open(ep.protocol(), ec);
    if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor.bind(ep, ec);
    if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (ec) {
        spdlog::error("event=listen_failed port={} error=\"{}\"", config.port, ec.message());
        return 1;
    }
    const auto bound = acceptor.local_endpoint();
    std::vector<Shared*> all;
    for (auto& sh : shards) all.push_back(sh.get());
    for (auto& sh : shards) sh->shards = all;
    std::make_shared<Listener>(std::move(acceptor), *shards.front())->run();

    // Each shard's clock: turn timers, bot delays, grace periods.
    std::vector<std::unique_ptr<net::steady_timer>> tickers;
    std::vector<std::function<void()>> ticks(n);
    for (unsigned i = 0; i < n; ++i) {
        tickers.push_back(std::make_unique<net::steady_timer>(*iocs[i]));
        ticks[i] = [&, i] {
            tickers[i]->expires_after(std::chrono::milliseconds(10));
            tickers[i]->async_wait([&, i](beast::error_code e) {
                if (e) return;
                shards[i]->hall.tick(unix_ms());
                if (shards[i]->cluster) shards[i]->cluster->tick(unix_ms());
                ticks[i]();
            });
        };
        net::post(*iocs[i], ticks[i]);
    }

    net::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](beast::error_code, int sig) {
        spdlog::info("event=stopping signal={}", sig);
        for (auto& io : iocs) io->stop();
    });

    std::cout << "listening on " << bound.address().to_string() << ":" << bound.port() << std::endl;
    spdlog::info("event=listening address={} port={} db={} static={}", bound.address().to_string(), bound.port(),
                 store, config.static_dir.empty() ? "-" : config.static_dir);
    std::vector<std::thread> loops;
    for (unsigned i = 1; i < n; ++i) loops.emplace_back([&io = *iocs[i]] { io.run(); });
    ioc.run();
    for (auto& io : iocs) io->stop();  // one shard's loop ending ends them all
    for (auto& t : loops) t.join();
    // The worker threads end before the io_contexts they post to (the writes queued are finished).
    for (auto& sh : shards) sh->hall.stop();
    for (auto& sh : shards) if (sh->cluster) sh->cluster->stop();
    return 0;
}

}  // namespace tarneeb::server
