// The hall, admission: connections per address, message size,
// the per-connection rate limit (a token bucket), malformed messages, the queue of a busy
// guest's messages, and the waiting-table limits of create (the hall's other roles: hall.cpp, hall_admission.cpp, hall_lobby.cpp,
// hall_http.cpp, hall_metrics.cpp; include/tarneeb/server/hall.hpp says what the hall is).
#include <algorithm>

#include "tarneeb/server/hall.hpp"

namespace tarneeb::server {

using nlohmann::json;

bool Hall::admits(const std::string& address) const {
    const auto it = conns_per_address_.find(address);
    return it == conns_per_address_.end() || it->second < config_.max_connections_per_address;
}

void Hall::open(ConnId conn, const std::string& address, Millis now) {
    now_ = std::max(now_, now);
    if (started_ == 0) started_ = now;
    if (!admits(address)) {
        // Not registered, so told directly (reply() answers registered connections only).
        out_.send(conn, error_json(to_string(ProtocolError::too_many_connections),
                                   "too many connections from this address (at most " +
                                       std::to_string(config_.max_connections_per_address) + ")")
                            .dump());
        out_.close(conn, 1008, "too many connections");
        return;
    }
    Conn c;
    c.address = address;
    c.rate = MessageRate(config_.rate.burst, now);
    conns_[conn] = c;
    ++conns_per_address_[address];
}

void Hall::closed(ConnId conn, Millis now) {
    now_ = std::max(now_, now);
    auto it = conns_.find(conn);
    if (it == conns_.end()) return;
    const std::string name = it->second.name;
    if (auto a = conns_per_address_.find(it->second.address); a != conns_per_address_.end() && --a->second <= 0)
        conns_per_address_.erase(a);
    conns_.erase(it);
    if (name.empty()) return;
    auto g = guests_.find(name);
    if (g == guests_.end()) return;
    g->second.conns.erase(conn);
    if (!g->second.conns.empty()) return;
    guests_.erase(g);  // its request in flight, if any, is released by name (holders_)
    tables_->disconnected(name);
}

void Hall::message(ConnId conn, std::string_view text, Millis now) {
    now_ = std::max(now_, now);
    auto it = conns_.find(conn);
    if (it == conns_.end()) return;
    Conn& c = it->second;
    if (text.size() > config_.max_message_bytes) {
        out_.close(conn, 1009, "message too big");
        return;
    }
    if (const RateVerdict v = c.rate.admit(now, config_.rate); v != RateVerdict::pass) {
        if (v == RateVerdict::close) return out_.close(conn, 1008, "rate limit");
        return out_.send(conn, rate_limited_reply(text));  // its size is bounded above
    }
    json msg = json::parse(text, nullptr, false);
    if (msg.is_discarded() || !msg.is_object() || !msg.contains("type") || !msg["type"].is_string()) {
        if (++c.bad >= config_.max_bad_messages) {
            out_.close(conn, 1008, "malformed messages");
            return;
        }
        error(conn, nullptr, to_string(ProtocolError::bad_message), "expected a JSON object with a string \"type\"");
        return;
    }
    // Read once, here: the hall handles typed requests only (client_request.hpp).
    ClientRequest request = parse_client_request(msg);
    // A ping never waits; everything else is handled in order, after the guest's request in flight.
    if (std::holds_alternative<PingRequest>(request.body)) return reply(conn, request.id, pong_json());
    if (busy(c) || !c.waiting.empty()) {
        if (c.waiting.size() >= config_.max_waiting_messages) {
            out_.close(conn, 1008, "too many messages waiting");
            return;
        }
        c.waiting.push_back(std::move(request));
        return;
    }
    handle(conn, std::move(request));
    run_pumps();
}

}  // namespace tarneeb::server
