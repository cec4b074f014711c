// The Beast transport of `tarneeb serve`: one listener, one HTTP session per TCP connection,
// upgraded to a WebSocket session on GET /ws (the roles of Beast's advanced_server example).
//
// Threading: one io_context run by one thread. Every handler, the hall and every table run on
// that thread, so no strand or lock is needed (the hall's database writer and bot threads
// post their results to it: nothing slow runs on it) and the order of actions at a table is the order
// the thread handles them (which makes the timer race exact: an action and the timeout are
// two handlers on the same thread; whichever runs first wins and the other one is stale).
// Why not a thread pool: the machine this serves from has 2 cores shared with the load
// generator; one action costs microseconds of game logic and a few of JSON, so one thread
// serves thousands of actions per second, and the hall holds no lock on the hot path.
// Scaling past one core is a sharding question (tables by id to io_contexts), left for later.
//
// Limits: request body 8 KiB, header 8 KiB, HTTP timeout 30 s; WebSocket message at most
// HallConfig::max_message_bytes (Beast closes with 1009 above it), idle timeout, a
// single-writer send queue per connection capped in frames and bytes (a slow reader is cut off
// at once, never buffered without bound; the frame in flight is owned by its write handler),
// origin check, connection cap, per-address connection cap (Hall::admits), static files only
// inside --static (resolve_static). Tokens never reach a log line: only connection ids,
// addresses, names and error codes are logged.
#include "tarneeb/server/cluster_node.hpp"
#include "tarneeb/server/serve.hpp"
#include "tarneeb/server/static_files.hpp"

#include <sys/resource.h>

#include <chrono>
#include <csignal>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
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

/// What every session shares: the hall, the sessions by connection id, the limits.
struct Shared {
    net::io_context& ioc;
    const ServeConfig& config;
    std::unique_ptr<Storage> storage;  ///< open_storage: PostgreSQL (--postgres) or SQLite (--db)
    Hall hall;
    /// Cluster mode (--redis): between the sessions and the hall (cluster_node.hpp); else null.
    std::unique_ptr<ClusterNode> cluster;
    std::unordered_map<ConnId, std::weak_ptr<WsSession>> sessions;
    ConnId next_id = 1;
    std::size_t http_sessions = 0;
    /// Open HTTP sessions (TCP connections not upgraded to a WebSocket) by peer address: a TCP
    /// connection over HallConfig::max_connections_per_address of them is closed at once, so
    /// silent sockets from one address cannot hold every descriptor.
    std::unordered_map<std::string, int> http_by_address;

    Shared(net::io_context& io, const ServeConfig& cfg, BotFactory bots);

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

Shared::Shared(net::io_context& io, const ServeConfig& cfg, BotFactory bots)
    : ioc(io), config(cfg), storage(open_storage(cfg.postgres.empty() ? cfg.db : cfg.postgres, cfg.full_sync)),
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
    if (cfg.redis.empty()) return;
    ClusterConfig cc;
    cc.redis = parse_redis_url(cfg.redis);
    cc.node = cfg.node;
    // The node's own connection to the store, for its scan of tables no node runs.
    cluster = std::make_unique<ClusterNode>(
        std::move(cc), hall, open_storage(cfg.postgres, cfg.full_sync),
        Outbox{[this](ConnId c, std::string text) { send(c, std::move(text)); },
               [this](ConnId c, int code, std::string reason) { close(c, code, std::move(reason)); }, log_line,
               [this](std::function<void()> job) { net::post(ioc, std::move(job)); }});
}

class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    HttpSession(tcp::socket&& socket, Shared& shared, std::string address, std::string remote)
        : stream_(std::move(socket)), shared_(shared), remote_(std::move(remote)), address_(std::move(address)) {
        ++shared_.http_sessions;
        ++shared_.http_by_address[address_];
    }
    ~HttpSession() {
        --shared_.http_sessions;
        if (auto it = shared_.http_by_address.find(address_); it != shared_.http_by_address.end() && --it->second <= 0)
            shared_.http_by_address.erase(it);
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
            if (!shared_.hall.admits(address_)) {
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
            shared_.hall.http_get(target, unix_ms(), [self = shared_from_this(), request](HttpReply reply) {
                self->respond(*request, static_cast<unsigned>(reply.status), reply.content_type, std::move(reply.body));
            }, address_, token);
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

class Listener : public std::enable_shared_from_this<Listener> {
public:
    Listener(net::io_context& ioc, tcp::acceptor acceptor, Shared& shared)
        : ioc_(ioc), acceptor_(std::move(acceptor)), shared_(shared) {}
    void run() { accept(); }

private:
    void accept() {
        acceptor_.async_accept(net::make_strand(ioc_), [self = shared_from_this()](beast::error_code ec, tcp::socket socket) {
            if (!ec) {
                socket.set_option(tcp::no_delay(true), ec);
                std::string address = "?", remote = "?";
                if (const auto ep = socket.remote_endpoint(ec); !ec) {
                    address = ep.address().to_string();
                    remote = address + ":" + std::to_string(ep.port());
                }
                const auto& by = self->shared_.http_by_address;
                if (auto it = by.find(address); it != by.end() && it->second >= self->shared_.config.hall.max_connections_per_address) {
                    spdlog::warn("event=address_refused remote={} reason=too_many_http_connections", remote);
                    beast::error_code ignored;
                    socket.shutdown(tcp::socket::shutdown_both, ignored);
                    socket.close(ignored);
                } else {
                    std::make_shared<HttpSession>(std::move(socket), self->shared_, std::move(address), std::move(remote))->run();
                }
            } else if (ec == net::error::operation_aborted) {
                return;
            }
            self->accept();
        });
    }
    net::io_context& ioc_;
    tcp::acceptor acceptor_;
    Shared& shared_;
};

}  // namespace

int serve(const ServeConfig& config, BotFactory bots) {
    // A peer that vanishes must cost an error code on write, not the process.
    std::signal(SIGPIPE, SIG_IGN);
    // One descriptor per connection: use all the open files the hard limit allows.
    if (rlimit lim{}; getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        setrlimit(RLIMIT_NOFILE, &lim);
    }
    // Declared before the io_context so that it outlives the sessions the io_context owns.
    std::unique_ptr<Shared> shared;
    net::io_context ioc{1};
    // Logged without the URL (it may hold a password).
    const std::string store = config.postgres.empty() ? config.db : std::string("postgresql");
    try {
        shared = std::make_unique<Shared>(ioc, config, std::move(bots));
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
    int resumed = 0;
    try {
        // A cluster node resumes nothing itself: it takes over the tables no node runs (its scan).
        if (!shared->cluster) resumed = shared->hall.resume(unix_ms());
    } catch (const std::exception& e) {
        const auto* se = dynamic_cast<const StorageError*>(&e);
        spdlog::error("event=resume_failed code={} error=\"{}\"", se ? se->code() : std::string("storage_io"), e.what());
        return 1;
    }
    spdlog::info("event=resumed tables={}", resumed);

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
    std::make_shared<Listener>(ioc, std::move(acceptor), *shared)->run();

    // The tables' clock: turn timers, bot delays, grace periods.
    net::steady_timer ticker(ioc);
    std::function<void()> tick = [&] {
        ticker.expires_after(std::chrono::milliseconds(10));
        ticker.async_wait([&](beast::error_code e) {
            if (e) return;
            shared->hall.tick(unix_ms());
            if (shared->cluster) shared->cluster->tick(unix_ms());
            tick();
        });
    };
    tick();

    net::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](beast::error_code, int sig) {
        spdlog::info("event=stopping signal={}", sig);
        ioc.stop();
    });

    std::cout << "listening on " << bound.address().to_string() << ":" << bound.port() << std::endl;
    spdlog::info("event=listening address={} port={} db={} static={}", bound.address().to_string(), bound.port(),
                 store, config.static_dir.empty() ? "-" : config.static_dir);
    ioc.run();
    // The worker threads end before the io_context they post to (the writes queued are finished).
    shared->hall.stop();
    if (shared->cluster) shared->cluster->stop();
    return 0;
}

}  // namespace tarneeb::server
