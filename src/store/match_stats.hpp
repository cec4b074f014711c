// What both storage backends derive from a stored tournament for players' profiles
// (storage.hpp "profiles"; docs/protocol.md "Profiles"), defined in match_stats.cpp with the
// public seat_stats (tarneeb/store/seat_stats.hpp: a match's numbers, from its Match).
// Internal to the store library (not a public header).
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "tarneeb/store/seat_stats.hpp"

namespace tarneeb::server {

/// The profile's entry for tournament state `state` when player `name` is on one of its teams:
/// {"id", "name", "format", "state", "partner", "champion"}; nullopt when not (or when the
/// state is not a tournament's).
std::optional<nlohmann::json> profile_tournament(const std::string& name, const nlohmann::json& state);

}  // namespace tarneeb::server
