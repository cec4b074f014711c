// The WebSocket session of `tarneeb serve` (GET /ws, upgraded by the HTTP session): reads
// messages and hands them to its shard (shard.hpp), writes the hall's frames through a
// single-writer send queue. A private header of src/net/.
//
// Limits: a message at most HallConfig::max_message_bytes (Beast closes with 1009 above four
// times that; the hall closes cleanly between), the idle timeout (--idle-seconds), and a send
// queue per connection capped in frames and bytes (--max-queue, --max-queue-bytes): a slow
// reader is cut off at once, never buffered without bound; the frame in flight is owned by its
// write handler.
#pragma once

#include <deque>
#include <memory>
#include <string>

#include "shard.hpp"

namespace tarneeb::server::transport {

class WsSession : public std::enable_shared_from_this<WsSession> {
public:
    WsSession(tcp::socket&& socket, Shared& shared, ConnId id, std::string remote, std::string address)
        : ws_(std::move(socket)), shared_(shared), id_(id), remote_(std::move(remote)), address_(std::move(address)) {}
    ~WsSession() { finish(); }

    /// Accepts the upgrade `req`; the session then lives as long as its reads and writes.
    void start(http::request<http::string_body> req);

    /// Queues one text frame. A connection whose queue would pass --max-queue (frames) or
    /// --max-queue-bytes (one frame is always accepted into an empty queue) has fallen behind:
    /// it is closed at once (the socket is shut, no close handshake behind the data it cannot
    /// take), never buffered without bound.
    void send(std::string text);

    /// The hall's close (rate limit, malformed messages...): the frames already queued are sent
    /// (they are bounded, see send), then the close handshake; a peer that does not take them
    /// within kCloseSeconds is cut off.
    void close(int code, std::string reason);

private:
    void on_accept(beast::error_code ec);
    void read();
    void on_read(beast::error_code ec);
    void write_next();
    void on_write(beast::error_code ec);
    void start_close();
    /// Closes at once: pending frames are dropped, the socket is shut and closed, every pending
    /// operation ends with an error (the read's ends the session: finish()).
    void abort();
    void cut();
    void finish();

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

}  // namespace tarneeb::server::transport
