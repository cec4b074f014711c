// Two rules of the `table` message shared by its reference encoding (protocol.cpp) and its
// fast writer (table_message.cpp). Private to src/room.
#pragma once

#include <optional>
#include <string>

#include "tarneeb/room/table.hpp"

namespace tarneeb::server {

/// A table message has a "round" object once the table's match has dealt (and until the table
/// is reset).
inline bool has_round(const Table& t) { return t.match_number() != 0 && t.match().has_round(); }

/// The join code a table message may carry: only to the private table's creator, only while the
/// code is in memory (a table reloaded after a restart has only its hash).
inline std::optional<std::string> creator_code(const Table& t, bool creator) {
    const TableSettings& s = t.settings();
    if (!creator || !s.is_private || s.code.empty()) return std::nullopt;
    return s.code;
}

}  // namespace tarneeb::server
