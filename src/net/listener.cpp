// The listener (listener.hpp): accepts on loop 0, hands each socket to the next loop.
#include "listener.hpp"

#include <spdlog/spdlog.h>

#include "http_session.hpp"

namespace tarneeb::server::transport {

void Listener::accept() {
    Shared& shard = *shards_[next_++ % shards_.size()];
    acceptor_.async_accept(shard.ioc, [self = shared_from_this(), &shard](beast::error_code ec, tcp::socket socket) {
        if (!ec) {
            // On the connection's loop: its sessions and counts are its own.
            net::post(shard.ioc, [&shard, socket = std::move(socket)]() mutable { admit(shard, std::move(socket)); });
        } else if (ec == net::error::operation_aborted) {
            return;
        }
        self->accept();
    });
}

void Listener::admit(Shared& shard, tcp::socket socket) {
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

}  // namespace tarneeb::server::transport
