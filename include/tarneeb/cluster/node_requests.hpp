// A guest's table request as it travels between the nodes of a cluster (routed_tables.hpp): the
// typed request (room/table_request.hpp), read once at its front's edge, written here as a JSON
// object and read back on the node running the table as the same typed request — never the
// client's text read again. The shape is the cluster's own (not the client protocol), so what a
// client wrote wrong (a seat out of range, an action of no shape, a bad chat line) travels as
// the typed request has it and the table's node refuses it exactly as its own front's would.
//
//   {"q":"join","table":T,"code":C?,"sit":B,"seat":0..3?}   {"q":"leave"}   {"q":"start"}
//   {"q":"add_bot","seat":S?,"bot":K?}   {"q":"remove_bot","seat":S?}   {"q":"hint"}
//   {"q":"act","version":V?,"action":A?}  (A: protocol.hpp action_json)
//   {"q":"chat","text":X,"phrase":P,"bad":[CODE,MESSAGE]?}
// A place travels as {"table":T,"seat":0..3 or null}, or null for none.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "tarneeb/room/table_request.hpp"
#include "tarneeb/server/tables.hpp"

namespace tarneeb::server {

/// `r` as the object above.
nlohmann::json node_request_json(const TableRequest& r);
/// The request `j` (node_request_json's); nullopt when it is not one of those shapes.
std::optional<TableRequest> parse_node_request(const nlohmann::json& j);
/// A guest's place (or null).
nlohmann::json node_place_json(const std::optional<Place>& p);
/// node_place_json's place; nullopt for null or a value of another shape.
std::optional<Place> parse_node_place(const nlohmann::json& j);

}  // namespace tarneeb::server
