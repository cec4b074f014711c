// What both storage backends derive from a stored match or tournament for players' profiles
// (storage.hpp "profiles"; docs/protocol.md "Profiles"), defined in match_stats.cpp.
// Internal to the server library (not a public header).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace tarneeb::server {

/// One seat's auction and contracts in a match.
struct SeatStats {
    std::int64_t bids = 0;       ///< bids called (passes and timeouts not counted)
    std::int64_t bid_sum = 0;    ///< their sum (the average bid is bid_sum / bids)
    std::int64_t contracts = 0;  ///< scored deals the seat declared
    std::int64_t made = 0;       ///< of which the contract was made
};

/// Each seat's numbers from a record's tarneeb-result/1 (record-format.md "Result"): a call's
/// seat follows from the deal's dealer (the auction starts after it); a contract counts once
/// the deal is scored (`made` not null). A record that does not replay counts what it reached.
std::array<SeatStats, 4> seat_stats(const std::string& record);

/// The profile's entry for tournament state `state` when player `name` is on one of its teams:
/// {"id", "name", "format", "state", "partner", "champion"}; nullopt when not (or when the
/// state is not a tournament's).
std::optional<nlohmann::json> profile_tournament(const std::string& name, const nlohmann::json& state);

}  // namespace tarneeb::server
