// The HTTP session of `tarneeb serve`: one per TCP connection the listener admitted. It answers
// the API (Hall::http_path, through its shard: shard.hpp) and the static files of --static
// (resolve_static), and hands GET /ws to a WebSocket session (ws_session.hpp) after the origin
// check and the connection caps. A private header of src/net/.
//
// Limits: request body 8 KiB, header 8 KiB, HTTP timeout 30 s; origin check (same host or
// --origin), connection cap per shard, per-address connection cap (AddressBook), static files
// only inside --static.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "shard.hpp"

namespace tarneeb::server::transport {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    /// `socket`: counted in the AddressBook (http_kind) by the listener; uncounted here at the end.
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
    void read();
    bool origin_allowed(const http::request<http::string_body>& req) const;
    void on_read(beast::error_code ec);
    /// A file of --static: only a regular file that resolves inside the root, never the
    /// database or its companions (resolve_static); anything else is 404.
    void serve_file(const http::request<http::string_body>& req, const std::string& target);
    void respond(const http::request<http::string_body>& req, unsigned status, const std::string& type, std::string body);

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    Shared& shared_;
    std::optional<http::request_parser<http::string_body>> parser_;
    std::string remote_ = "?";
    std::string address_ = "?";
};

}  // namespace tarneeb::server::transport
