// The HTTP session (http_session.hpp): requests read within the limits, GET /ws upgraded to a
// WebSocket session, the API answered through the shard, static files of --static.
#include "http_session.hpp"

#include "tarneeb/net/http_auth.hpp"

#include <fstream>
#include <sstream>

#include <spdlog/spdlog.h>

#include "tarneeb/net/static_files.hpp"
#include "ws_session.hpp"

namespace tarneeb::server::transport {

namespace {

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

}  // namespace

void HttpSession::read() {
    parser_.emplace();
    parser_->body_limit(8 * 1024);
    parser_->header_limit(8 * 1024);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
        self->on_read(ec);
    });
}

bool HttpSession::origin_allowed(const http::request<http::string_body>& req) const {
    const auto origin = req[http::field::origin];
    if (origin.empty()) return true;  // not a browser
    const auto host = req[http::field::host];
    const std::string o(origin);
    if (o == "http://" + std::string(host) || o == "https://" + std::string(host)) return true;
    for (const auto& allowed : shared_.config.origins)
        if (o == allowed) return true;
    return false;
}

void HttpSession::on_read(beast::error_code ec) {
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
        const ConnId id = shared_.new_id();
        std::make_shared<WsSession>(stream_.release_socket(), shared_, id, remote_, address_)->start(std::move(req));
        return;
    }
    if (req.method() != http::verb::get && req.method() != http::verb::head)
        return respond(req, 405, "application/json", R"({"error":"method"})");
    const std::string target(req.target());
    if (Shared::api_path(target)) {
        // Answered later (a database read on the writer thread); this session waits for it.
        // `Authorization: Bearer <token>`: who asks (a private table's matches are its
        // players'); anything else there counts as no token. Never logged.
        std::string token = bearer_token(req[http::field::authorization]);
        auto request = std::make_shared<http::request<http::string_body>>(std::move(req));
        shared_.http_get(target, address_, token, [self = shared_from_this(), request](HttpReply reply) {
            self->respond(*request, static_cast<unsigned>(reply.status), reply.content_type, std::move(reply.body));
        });
        return;
    }
    serve_file(req, target);
}

void HttpSession::serve_file(const http::request<http::string_body>& req, const std::string& target) {
    const auto path = resolve_static(shared_.config.static_dir, target, {shared_.config.db});
    std::ifstream in;
    if (path) in.open(*path, std::ios::binary);
    if (!path || !in) return respond(req, 404, "application/json", R"({"error":"not_found"})");
    std::ostringstream body;
    body << in.rdbuf();
    respond(req, 200, std::string(mime_type(path->string())), body.str());
}

void HttpSession::respond(const http::request<http::string_body>& req, unsigned status, const std::string& type, std::string body) {
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

}  // namespace tarneeb::server::transport
