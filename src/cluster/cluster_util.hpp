// Argument checks shared by the cluster files (include/tarneeb/cluster/cluster.hpp). Internal.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "tarneeb/cluster/cluster.hpp"

namespace tarneeb::server {

/// Throws ClusterError{"invalid_argument"} when `id` (a table or guest id) is empty or over 256 bytes.
void check_cluster_id(std::string_view id, std::string_view what);
/// Throws ClusterError{"invalid_argument"} when `ttl` is below 1 ms.
void check_cluster_ttl(std::chrono::milliseconds ttl);
/// Throws ClusterError{"invalid_argument"} when `prefix` is empty, over 64 bytes or has a character
/// outside [A-Za-z0-9._:-] (a glob character would break SCAN MATCH).
void check_cluster_prefix(std::string_view prefix);
/// Throws ClusterError{"invalid_argument"} when `node` is not a valid NodeId.
void check_node(const NodeId& node);

/// The key of a table's lease without the table id (PREFIX:lease:), TableLeases' and the seat scripts'.
inline std::string lease_key_prefix(std::string_view prefix) { return std::string(prefix) + ":lease:"; }

}  // namespace tarneeb::server
