// The listener of `tarneeb serve`: accepts TCP connections on loop 0 and gives them to the
// loops in turn (shard.hpp); each connection lives on its loop from then on, first as an HTTP
// session (http_session.hpp). A private header of src/net/.
#pragma once

#include <memory>
#include <vector>

#include "shard.hpp"

namespace tarneeb::server::transport {

/// Accepts TCP connections on loop 0 and gives them to the loops in turn; each connection
/// lives on its loop from then on.
class Listener : public std::enable_shared_from_this<Listener> {
public:
    /// `home`: the process's, whose `loops` lists every loop.
    Listener(tcp::acceptor acceptor, const Home& home) : acceptor_(std::move(acceptor)), shards_(home.loops) {}
    void run() { accept(); }

private:
    void accept();
    /// On the connection's loop: counts the connection for its address (AddressBook, http_kind) and
    /// starts its HTTP session, or closes it when the address has too many.
    static void admit(Shared& shard, tcp::socket socket);

    tcp::acceptor acceptor_;
    const std::vector<Shared*>& shards_;
    std::size_t next_ = 0;
};

}  // namespace tarneeb::server::transport
