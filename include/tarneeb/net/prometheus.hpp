// GET /metrics in the Prometheus text exposition format (version 0.0.4; docs/operations.md
// "Monitoring"), written from the JSON document of GET /metrics.json (Hall::metrics_json, with
// several shards combined) by one function, so that the two never disagree. Boost-free so that
// it is tested without sockets (tests/net/prometheus_test.cpp).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tarneeb::server {

/// The Content-Type of the text format: "text/plain; version=0.0.4; charset=utf-8".
inline constexpr std::string_view kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

/// The metrics of the /metrics.json document `metrics` in the text format: for each metric, a
/// `# HELP` and a `# TYPE` line, then its samples `name{label="value",...} number`, one a line,
/// every line ending in '\n'. Names start with `tarneeb_` and carry their unit (`_seconds`,
/// `_total` for counters); latencies are converted from the document's milliseconds to seconds.
/// A figure missing from the document (or not a number) is left out, with its HELP and TYPE.
/// Each shard's own figures ("shards") are labelled `shard="I"`; the cluster's ("cluster") are
/// `tarneeb_cluster_…`. Label values are escaped (\\, \", \n) as the format says.
std::string prometheus_text(const nlohmann::json& metrics);

/// A label value escaped for the text format: backslash, double quote and line feed.
std::string prometheus_label_value(std::string_view value);

}  // namespace tarneeb::server
