// What one client may make the server do (security #11): a connection's message rate (a token
// bucket), the tables created and not started yet, per guest and per address, and the outside
// engines' processes, server-wide and per address (issue 27). The hall
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

/// The outside-engine processes' budget (issue 27: a table of engine bots keeps three engine
/// processes for its whole match; 12 guests made 36, 327 MB): engine-bot seats at live tables,
/// counted over the server and by address (the address of each table's creator, as for
/// HallConfig::max_playing_tables_per_address; "" — a resumed or a tournament's table — counts
/// in the total only). A seat counts from its add_bot until its bot is removed or its table
/// closes; `add_bot` of an engine past either limit is refused (engine_budget). Built-in bots
/// never count. One table host's (its thread's): not thread-safe.
class EngineBudget {
public:
    /// `total`: seats over the server at most; `per_address`: over one address's tables.
    EngineBudget(int total, int per_address) : total_limit_(total), per_address_limit_(per_address) {}
    /// Counts one seat of `address` when both counts stay within their limits; false, counting
    /// nothing, when either is reached.
    bool reserve(const std::string& address);
    /// Counts one seat of `address` whatever the limits (a table resumed with its engine seats).
    void add(const std::string& address);
    /// Counts one seat of `address` less.
    void release(const std::string& address);
    int total() const { return total_; }
    int of(const std::string& address) const;
    int total_limit() const { return total_limit_; }
    int per_address_limit() const { return per_address_limit_; }

private:
    int total_limit_, per_address_limit_;
    int total_ = 0;
    std::unordered_map<std::string, int> by_address_;
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
