// The events of a table change written as JSON text (event_text.cpp), and a card. Internal to
// the room library (not a public header).
#pragma once

#include <string>
#include <vector>

#include "json_text.hpp"
#include "tarneeb/room/events.hpp"

namespace tarneeb::server::json_text {

/// "QS": a card as its two-character string.
inline void put_card(std::string& out, Card c) { put(out, to_string(c)); }

/// events_json(events).dump() appended to `out`: `[EVENT,...]` (docs/protocol.md "Events").
void put_events(std::string& out, const std::vector<TableEvent>& events);

}  // namespace tarneeb::server::json_text
