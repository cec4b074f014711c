// GET /metrics in the Prometheus text format (prometheus.hpp): one table says which figure of
// the /metrics.json document is which metric; prometheus_text walks it.
#include "tarneeb/net/prometheus.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace tarneeb::server {

using nlohmann::json;

namespace {

/// How a metric's samples are read from the document.
enum class Kind {
    number,  ///< each sample: the number at `pointer`, divided by `divisor`
    health,  ///< one sample: 1 when the string at `pointer` is "ok", else 0; label status="<it>"
    info,    ///< one sample: 1; each Sample is a label whose value is the one at `pointer`
};

struct Sample {
    std::string_view labels;   ///< fixed labels (`quantile="0.5"`), or (Kind::info) a label name
    std::string_view pointer;  ///< a JSON pointer into the document
};

struct Metric {
    std::string_view name;  ///< after "tarneeb_"
    std::string_view type;  ///< "gauge" or "counter"
    std::string_view help;
    std::vector<Sample> samples;
    Kind kind = Kind::number;
    double divisor = 1;  ///< e.g. 1000: milliseconds to seconds (a division rounds exactly once)
};

const std::vector<Metric>& metrics_table() {
    static const std::vector<Metric> table = {
        {"tables", "gauge", "Live tables.", {{"", "/tables"}}, Kind::number, 1},
        {"tables_playing", "gauge", "Tables in play.", {{"", "/tables_playing"}}, Kind::number, 1},
        {"connections", "gauge", "Open WebSocket connections.", {{"", "/connections"}}, Kind::number, 1},
        {"signed_in", "gauge", "Connections of signed-in guests.", {{"", "/signed_in"}}},
        {"actions_total", "counter", "Actions played since the start.", {{"", "/actions_total"}}, Kind::number, 1},
        {"actions_per_second", "gauge", "Actions per second over the last 10 s.", {{"", "/actions_per_second"}}},
        {"act_latency_seconds", "gauge",
         "Latency of act (received to every update queued) over the last 10000 actions, by quantile.",
         {{"quantile=\"0.5\"", "/latency_ms/p50"}, {"quantile=\"0.9\"", "/latency_ms/p90"}, {"quantile=\"0.99\"", "/latency_ms/p99"}},
         Kind::number, 1000},
        {"act_latency_max_seconds", "gauge", "Highest latency of act over the last 10000 actions.", {{"", "/latency_ms/max"}},
         Kind::number, 1000},
        {"uptime_seconds", "gauge", "Seconds since the server started.", {{"", "/uptime_s"}}},
        {"storage_healthy", "gauge", "1 while database writes work, else 0 (status: ok or the error code).",
         {{"", "/storage"}}, Kind::health},
        {"storage_errors_total", "counter", "Failed database writes since the start.", {{"", "/storage_errors"}},
         Kind::number, 1},
        {"write_queue_jobs", "gauge", "Jobs waiting for the database writer thread.", {{"", "/write_queue"}}, Kind::number, 1},
        {"journal_batches_total", "counter", "Group commits: transactions of table changes since the start.",
         {{"", "/journal/batches"}}},
        {"journal_writes_total", "counter", "Table changes written in group commits since the start.", {{"", "/journal/writes"}}},
        {"journal_last_batch_writes", "gauge", "Table changes in the last group commit.", {{"", "/journal/last_batch"}}},
        {"journal_max_batch_writes", "gauge", "Most table changes in one group commit since the start.", {{"", "/journal/max_batch"}}},
        {"timers_pending", "gauge", "Entries of the tables' wakeup heap.", {{"", "/timers/pending"}}},
        {"timers_late_total", "counter", "Tables whose timer the heap missed (stays 0; anything else is a bug).",
         {{"", "/timers/late"}}},
        {"analysis_queued", "gauge", "Analyses waiting.", {{"", "/analysis/queued"}}},
        {"analysis_running", "gauge", "Analyses running.", {{"", "/analysis/running"}}},
        {"analysis_done_total", "counter", "Analyses stored since the start.", {{"", "/analysis/done"}}},
        {"analysis_failed", "gauge", "Analyses that failed.", {{"", "/analysis/failed"}}},
        {"password_jobs_queued", "gauge", "Password jobs waiting.", {{"", "/passwords/queued"}}},
        {"password_refusals_total", "counter", "Sign-ins or registrations answered busy (password queue full) since the start.",
         {{"", "/passwords/refused"}}},
        // Cluster mode (the cluster node's figures, cluster_node.cpp).
        {"cluster_info", "gauge", "This node of the cluster (value 1).", {{"node", "/cluster/node"}, {"instance", "/cluster/instance"}},
         Kind::info},
        {"cluster_nodes", "gauge", "Nodes alive.", {{"", "/cluster/nodes"}}},
        {"cluster_leases", "gauge", "Table leases held (tables this node owns).", {{"", "/cluster/leases"}}},
        {"cluster_routes", "gauge", "This node's guests at tables another node runs.", {{"", "/cluster/routes"}}},
        {"cluster_remote_guests", "gauge", "Guests of other nodes' fronts at this node's tables.", {{"", "/cluster/remote_guests"}}},
        {"cluster_requests_waiting", "gauge", "Table requests sent to another node and not answered yet.",
         {{"", "/cluster/requests_waiting"}}},
        {"cluster_locates_waiting", "gauge", "Sign-ins waiting for their table to run again (being taken over).",
         {{"", "/cluster/locates_waiting"}}},
        {"cluster_recorded_waiting", "gauge", "Guests here whose recorded table ran nowhere when they signed in (routed to it once it runs).",
         {{"", "/cluster/recorded_waiting"}}},
        {"cluster_request_timeouts_total", "counter", "Table requests to another node answered storage_unavailable for no answer.",
         {{"", "/cluster/request_timeouts"}}},
        {"cluster_messages_sent_total", "counter", "Messages sent to other nodes.", {{"", "/cluster/messages_sent"}}},
        {"cluster_messages_received_total", "counter", "Messages received from other nodes.", {{"", "/cluster/messages_received"}}},
        {"cluster_messages_dropped_total", "counter", "Messages dropped (a full publish queue, or Redis away).",
         {{"", "/cluster/messages_dropped"}}},
        {"cluster_tables_adopted_total", "counter", "Tables adopted from nodes gone.", {{"", "/cluster/tables_adopted"}}},
        {"cluster_seat_failures_total", "counter", "Seat records (guest to table) Redis did not take or clear.",
         {{"", "/cluster/seat_failures"}}},
        {"cluster_directory_refreshes_total", "counter", "Directory reads done.", {{"", "/cluster/directory_refreshes"}}},
        {"cluster_redis_healthy", "gauge", "1 while Redis answers, else 0 (status: ok or the error code).", {{"", "/cluster/redis"}},
         Kind::health},
    };
    return table;
}

const json* at(const json& doc, std::string_view pointer) {
    const json::json_pointer p{std::string(pointer)};
    if (!doc.is_object() || !doc.contains(p)) return nullptr;
    return &doc.at(p);
}

std::string number_text(const json& v, double divisor) {
    if (divisor == 1 && v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
    if (divisor == 1 && v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
    const double d = v.get<double>() / divisor;
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, d);
    return std::string(buf, r.ptr);
}

std::string text_of(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

/// `labels` joined, without braces when there are none.
std::string braces(const std::vector<std::string>& labels) {
    std::string out;
    for (const auto& l : labels) {
        if (l.empty()) continue;
        out += out.empty() ? "{" : ",";
        out += l;
    }
    return out.empty() ? out : out + "}";
}

/// The sample lines of `m` read from `doc`.
std::string samples_of(const Metric& m, const std::string& name, const json& doc) {
    std::string out;
    switch (m.kind) {
    case Kind::number:
        for (const auto& s : m.samples)
            if (const json* v = at(doc, s.pointer); v && v->is_number())
                out += name + braces({std::string(s.labels)}) + " " + number_text(*v, m.divisor) + "\n";
        break;
    case Kind::health:
        if (const json* v = at(doc, m.samples.front().pointer); v && v->is_string()) {
            const std::string status = v->get<std::string>();
            out += name + braces({"status=\"" + prometheus_label_value(status) + "\""}) + (status == "ok" ? " 1\n" : " 0\n");
        }
        break;
    case Kind::info: {
        std::vector<std::string> labels;
        for (const auto& s : m.samples)
            if (const json* v = at(doc, s.pointer); v && !v->is_null())
                labels.push_back(std::string(s.labels) + "=\"" + prometheus_label_value(text_of(*v)) + "\"");
        if (!labels.empty()) out += name + braces(labels) + " 1\n";
        break;
    }
    }
    return out;
}

std::string help_text(std::string_view help) {
    std::string out;
    for (const char c : help) {
        if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else out += c;
    }
    return out;
}

std::string family(const std::string& name, const Metric& m, const std::string& samples) {
    if (samples.empty()) return {};
    return "# HELP " + name + " " + help_text(m.help) + "\n# TYPE " + name + " " + std::string(m.type) +
           "\n" + samples;
}

}  // namespace

std::string prometheus_label_value(std::string_view value) {
    std::string out;
    for (const char c : value) {
        if (c == '\\') out += "\\\\";
        else if (c == '"') out += "\\\"";
        else if (c == '\n') out += "\\n";
        else out += c;
    }
    return out;
}

std::string prometheus_text(const json& metrics) {
    std::string out;
    for (const Metric& m : metrics_table()) {
        const std::string name = "tarneeb_" + std::string(m.name);
        out += family(name, m, samples_of(m, name, metrics));
    }
    return out;
}

}  // namespace tarneeb::server
