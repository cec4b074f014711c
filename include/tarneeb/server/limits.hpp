// What one client may make the server do (security #11): a connection's message rate (a token
// bucket) and the tables created and not started yet, per guest and per address. The hall
// (hall_admission.cpp) and a cluster node's fronts (cluster_node.cpp) apply them; defined in
// src/server/limits.cpp.
#pragma once

#include <algorithm>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "tarneeb/room/table.hpp"  // Millis

namespace tarneeb::server {

/// Tables created and not started yet, counted by creator and by the creator's address: the
/// waiting-table limits (HallConfig::max_waiting_tables_per_*; security #11). Thread-safe. A
/// process has one hall, so a limit holds for the whole process; each node of a Redis cluster
/// counts its own.
class WaitingTables {
public:
    /// Counts one more table of `guest` from `address` when both stay within `per_guest` and
    /// `per_address`; false, counting nothing, when either limit is reached.
    bool reserve(const std::string& guest, const std::string& address, int per_guest, int per_address);
    /// Counts one table of `guest` from `address` less (it started, closed, or was never made).
    void release(const std::string& guest, const std::string& address);

private:
    std::mutex mutex_;
    std::unordered_map<std::string, int> by_guest_, by_address_;
};

/// A connection's message rate limit (security #11; `tarneeb serve --rate`, `--rate-burst`).
struct RateLimit {
    double per_second = 20;    ///< messages per second per connection...
    double burst = 40;         ///< ...with this burst (`tarneeb serve`: --rate-burst, default 2 x --rate)
    int max_rejections = 200;  ///< rate-limited messages before it is closed (1008 "rate limit")
};

/// What a connection's rate limit does with one message (MessageRate::admit).
enum class RateVerdict {
    pass,    ///< within the rate: handle it
    refuse,  ///< over it: answer rate_limited_reply() and drop it
    close,   ///< over it for the RateLimit::max_rejections-th time: close the connection
};

/// One connection's message rate limit: a token bucket of `burst` tokens refilled at `rate` per
/// second (RateLimit). The hall keeps one per connection; a cluster node keeps another at the
/// front of each relayed connection, so that a flood is refused where it arrives and never
/// relayed. Both decide with admit() and answer with rate_limited_reply().
struct MessageRate {
    double tokens;        ///< starts full
    Millis refilled;      ///< when tokens were last refilled (Unix ms)
    int limited = 0;      ///< messages refused so far
    MessageRate(double burst, Millis now) : tokens(burst), refilled(now) {}
    /// Takes a token for a message at `now`: true when there was one, else false (and
    /// `limited` counts one more).
    bool take(Millis now, double rate, double burst) {
        tokens = std::min(burst, tokens + static_cast<double>(std::max<Millis>(0, now - refilled)) * rate / 1000.0);
        refilled = std::max(refilled, now);
        if (tokens < 1.0) return ++limited, false;
        tokens -= 1.0;
        return true;
    }
    /// Takes a token for one message at `now` under `limit` and says what to do with it.
    RateVerdict admit(Millis now, const RateLimit& limit) {
        if (take(now, limit.per_second, limit.burst)) return RateVerdict::pass;
        return limited >= limit.max_rejections ? RateVerdict::close : RateVerdict::refuse;
    }
};

/// The answer to client message `text` refused by its rate limit: a `rate_limited` error with
/// the message's request id when `text` is a JSON object that has one (docs/protocol.md
/// "Errors"). `text` is parsed for nothing else; the caller bounds its size.
std::string rate_limited_reply(std::string_view text);

}  // namespace tarneeb::server
