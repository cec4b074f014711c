// The limits of limits.hpp: the rate-limited answer, the waiting-table counts and the engine budget.
#include "tarneeb/server/limits.hpp"

#include <nlohmann/json.hpp>

#include "tarneeb/room/protocol.hpp"

namespace tarneeb::server {

using nlohmann::json;

std::string rate_limited_reply(std::string_view text) {
    json error = error_json(to_string(ProtocolError::rate_limited), "too many messages");
    // The request's id, so that a client waiting on it hears the answer.
    const json peek = json::parse(text, nullptr, false);
    if (const json id = peek.is_object() ? request_id(peek) : json(nullptr); !id.is_null()) error["id"] = id;
    return error.dump();
}

bool WaitingTables::reserve(const std::string& guest, const std::string& address, int per_guest, int per_address) {
    std::lock_guard lock(mutex_);
    int& g = by_guest_[guest];
    int& a = by_address_[address];
    if (g >= per_guest || a >= per_address) {
        if (g == 0) by_guest_.erase(guest);
        if (a == 0) by_address_.erase(address);
        return false;
    }
    ++g;
    ++a;
    return true;
}

void WaitingTables::release(const std::string& guest, const std::string& address) {
    std::lock_guard lock(mutex_);
    if (auto g = by_guest_.find(guest); g != by_guest_.end() && --g->second <= 0) by_guest_.erase(g);
    if (auto a = by_address_.find(address); a != by_address_.end() && --a->second <= 0) by_address_.erase(a);
}

bool EngineBudget::reserve(const std::string& address) {
    if (total_ >= total_limit_ || (!address.empty() && of(address) >= per_address_limit_)) return false;
    add(address);
    return true;
}

void EngineBudget::add(const std::string& address) {
    ++total_;
    if (!address.empty()) ++by_address_[address];
}

void EngineBudget::release(const std::string& address) {
    --total_;
    if (auto a = by_address_.find(address); a != by_address_.end() && --a->second <= 0) by_address_.erase(a);
}

int EngineBudget::of(const std::string& address) const {
    const auto a = by_address_.find(address);
    return a == by_address_.end() ? 0 : a->second;
}

}  // namespace tarneeb::server
