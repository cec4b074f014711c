// A live table's journal: the entries that rebuild the table after a restart (stored by
// Storage, written before each change: docs/architecture.md "Server threads"). An entry is a
// typed value here; its stored form is one small JSON object:
//
//   {"op":"sit","seat","name"}          a player sits down (moves, when seated already)
//   {"op":"leave","seat"}               the player leaves (during a match a bot takes over)
//   {"op":"bot","seat","bot","seed"}    a bot from the registry, made from its seed
//   {"op":"unbot","seat"}               the bot is removed
//   {"op":"start","seed","match","version","deal"}   a match starts (the table's version after it)
//   {"op":"act","seat","a":action_text[,"deal"][,"timeout":true]}   an action
//
// "deal" is the seed of the next deal (drawn from the OS CSPRNG for each deal online), present
// on a start and on an action that ends a round; entries without it (older journals) deal from
// the match seed. Fields older journals may lack ("match", "version", "deal") are optional.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "tarneeb/core/round.hpp"

namespace tarneeb::server {

namespace journal {
struct Sit { Seat seat; std::string name; };
struct Leave { Seat seat; };
struct AddBot { Seat seat; std::string bot; std::uint64_t seed = 0; };
struct RemoveBot { Seat seat; };
struct Start {
    std::uint64_t seed = 0;
    std::optional<int> match;               ///< the match's number (1-based)
    std::optional<std::uint64_t> version;   ///< the table's version after the start
    std::optional<std::uint64_t> deal;
};
struct Act { Seat seat; Action action; std::optional<std::uint64_t> deal; bool timeout = false; };
}  // namespace journal

using JournalEntry = std::variant<journal::Sit, journal::Leave, journal::AddBot, journal::RemoveBot,
                                  journal::Start, journal::Act>;

/// The stored form (above), as a JSON tree: the plain reference journal_text is checked against.
nlohmann::json journal_json(const JournalEntry& e);
/// The stored form as text, written straight (no tree): the bytes of journal_json(e).dump()
/// (keys sorted, compact), checked for every kind of entry in tests/room/protocol_test.cpp.
/// What the hall hands to the store (JournalWrite::entries).
std::string journal_text(const JournalEntry& e);
/// Reads a stored entry; nullopt when it is not one of the shapes above (a seat is taken
/// modulo 4, as it always was).
std::optional<JournalEntry> parse_journal_entry(const nlohmann::json& j);
/// The entry's "op", e.g. "act" (for logs).
std::string_view journal_op(const JournalEntry& e);

/// Compact journal form of an action: "pass", "8", "tH", "QS".
std::string action_text(Action a);
/// Inverse of action_text; nullopt when unreadable.
std::optional<Action> parse_action_text(std::string_view text);

}  // namespace tarneeb::server
