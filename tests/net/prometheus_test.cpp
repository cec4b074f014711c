// prometheus_text: GET /metrics in the Prometheus text format, written from the /metrics.json
// document (tarneeb/net/prometheus.hpp). A fixed document and the exact text expected.
#include "tarneeb/net/prometheus.hpp"

#include <gtest/gtest.h>

namespace tarneeb::server {
namespace {

using nlohmann::json;

TEST(Prometheus, TextOfAFixedDocument) {
    const json doc = json::parse(R"({
        "tables": 3, "tables_playing": 1, "connections": 5, "actions_total": 42,
        "latency_ms": {"p50": 1.5, "p90": 2, "p99": 12.25, "max": 40},
        "uptime_s": 61, "storage": "storage_full", "storage_errors": 2,
        "journal": {"batches": 7, "writes": 9, "writes_per_batch": 1.2857142857142858},
        "cluster": {"node": "a\"b\\c\nd", "instance": 7, "request_timeouts": 2, "redis": "ok"}
    })");
    const std::string expected =
        "# HELP tarneeb_tables Live tables.\n"
        "# TYPE tarneeb_tables gauge\n"
        "tarneeb_tables 3\n"
        "# HELP tarneeb_tables_playing Tables in play.\n"
        "# TYPE tarneeb_tables_playing gauge\n"
        "tarneeb_tables_playing 1\n"
        "# HELP tarneeb_connections Open WebSocket connections.\n"
        "# TYPE tarneeb_connections gauge\n"
        "tarneeb_connections 5\n"
        "# HELP tarneeb_actions_total Actions played since the start.\n"
        "# TYPE tarneeb_actions_total counter\n"
        "tarneeb_actions_total 42\n"
        "# HELP tarneeb_act_latency_seconds Latency of act (received to every update queued) over the last 10000 actions, by quantile.\n"
        "# TYPE tarneeb_act_latency_seconds gauge\n"
        "tarneeb_act_latency_seconds{quantile=\"0.5\"} 0.0015\n"
        "tarneeb_act_latency_seconds{quantile=\"0.9\"} 0.002\n"
        "tarneeb_act_latency_seconds{quantile=\"0.99\"} 0.01225\n"
        "# HELP tarneeb_act_latency_max_seconds Highest latency of act over the last 10000 actions.\n"
        "# TYPE tarneeb_act_latency_max_seconds gauge\n"
        "tarneeb_act_latency_max_seconds 0.04\n"
        "# HELP tarneeb_uptime_seconds Seconds since the server started.\n"
        "# TYPE tarneeb_uptime_seconds gauge\n"
        "tarneeb_uptime_seconds 61\n"
        "# HELP tarneeb_storage_healthy 1 while database writes work, else 0 (status: ok or the error code).\n"
        "# TYPE tarneeb_storage_healthy gauge\n"
        "tarneeb_storage_healthy{status=\"storage_full\"} 0\n"
        "# HELP tarneeb_storage_errors_total Failed database writes since the start.\n"
        "# TYPE tarneeb_storage_errors_total counter\n"
        "tarneeb_storage_errors_total 2\n"
        "# HELP tarneeb_journal_batches_total Group commits: transactions of table changes since the start.\n"
        "# TYPE tarneeb_journal_batches_total counter\n"
        "tarneeb_journal_batches_total 7\n"
        "# HELP tarneeb_journal_writes_total Table changes written in group commits since the start.\n"
        "# TYPE tarneeb_journal_writes_total counter\n"
        "tarneeb_journal_writes_total 9\n"
        "# HELP tarneeb_cluster_info This node of the cluster (value 1).\n"
        "# TYPE tarneeb_cluster_info gauge\n"
        "tarneeb_cluster_info{node=\"a\\\"b\\\\c\\nd\",instance=\"7\"} 1\n"
        "# HELP tarneeb_cluster_request_timeouts_total Table requests to another node answered storage_unavailable for no answer.\n"
        "# TYPE tarneeb_cluster_request_timeouts_total counter\n"
        "tarneeb_cluster_request_timeouts_total 2\n"
        "# HELP tarneeb_cluster_redis_healthy 1 while Redis answers, else 0 (status: ok or the error code).\n"
        "# TYPE tarneeb_cluster_redis_healthy gauge\n"
        "tarneeb_cluster_redis_healthy{status=\"ok\"} 1\n";
    EXPECT_EQ(prometheus_text(doc), expected);
}

TEST(Prometheus, LabelValuesAreEscaped) {
    EXPECT_EQ(prometheus_label_value(R"(plain)"), "plain");
    EXPECT_EQ(prometheus_label_value("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
}

TEST(Prometheus, NothingForADocumentThatIsNotAnObject) {
    EXPECT_EQ(prometheus_text(json("storage_io")), "");
    EXPECT_EQ(prometheus_text(json::object()), "");
}

}  // namespace
}  // namespace tarneeb::server
