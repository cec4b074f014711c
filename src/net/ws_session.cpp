// The WebSocket session (ws_session.hpp): the upgrade accepted, the reads handed to the shard,
// the single-writer send queue with its caps, the close handshake and the cut-off.
#include "ws_session.hpp"

#include <spdlog/spdlog.h>

namespace tarneeb::server::transport {

void WsSession::start(http::request<http::string_body> req) {
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

void WsSession::send(std::string text) {
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

void WsSession::close(int code, std::string reason) {
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

void WsSession::on_accept(beast::error_code ec) {
    if (ec) {
        spdlog::info("conn={} event=ws_accept_failed error=\"{}\"", id_, ec.message());
        return;
    }
    shared_.sessions[id_] = weak_from_this();
    spdlog::info("conn={} event=open remote={}", id_, remote_);
    shared_.open(id_, address_);  // over the per-address limit: closed at once
    read();
}

void WsSession::read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
}

void WsSession::on_read(beast::error_code ec) {
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

void WsSession::write_next() {
    writing_ = true;
    // The frame in flight is owned by the handler too: whatever happens to the queue
    // meanwhile (abort clears it), Beast reads from live memory until the write completes.
    auto frame = queue_.front();
    ws_.text(true);
    ws_.async_write(net::buffer(*frame), [self = shared_from_this(), frame](beast::error_code ec, std::size_t) {
        self->on_write(ec);
    });
}

void WsSession::on_write(beast::error_code ec) {
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

void WsSession::start_close() {
    if (close_started_ || cut_) return;
    close_started_ = true;
    ws_.async_close(websocket::close_reason(static_cast<websocket::close_code>(close_code_), close_reason_),
                    [self = shared_from_this()](beast::error_code) { self->close_timer_.cancel(); });
}

void WsSession::abort() {
    closing_ = true;
    cut();
}

void WsSession::cut() {
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

void WsSession::finish() {
    if (finished_) return;
    finished_ = true;
    shared_.addresses.remove(AddressBook::ws_kind, address_);  // counted at the upgrade
    shared_.sessions.erase(id_);
    shared_.closed(id_);
    spdlog::info("conn={} event=closed", id_);
}

}  // namespace tarneeb::server::transport
