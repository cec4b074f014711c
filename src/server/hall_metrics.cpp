// The hall, its metrics (GET /metrics.json, from which the transport writes /metrics in the
// Prometheus text format: net/prometheus.hpp; docs/protocol.md "HTTP endpoints"): actions per
// second over the last 10 s and the latency of `act` (receive → every update written to the
// send queues) over the last 10,000 actions (the hall's other roles: hall.cpp,
// hall_admission.cpp, hall_lobby.cpp, hall_http.cpp).
#include <algorithm>

#include "tarneeb/core/stats.hpp"
#include "tarneeb/server/hall.hpp"

namespace tarneeb::server {

using nlohmann::json;

void Hall::record_latency(double ms, Millis now) {
    ++actions_total_;
    recent_actions_.push_back(now);
    while (!recent_actions_.empty() && recent_actions_.front() < now - 10000) recent_actions_.pop_front();
    if (ms >= 0) {
        latencies_ms_.push_back(ms);
        if (latencies_ms_.size() > 10000) latencies_ms_.pop_front();
    }
}

json Hall::analysis_metrics() const {
    std::size_t running = 0;
    for (const auto& [key, job] : analyses_) running += *job.running;
    return {{"queued", analyses_.size() - running}, {"running", running}, {"done", analyses_done_},
            {"failed", analysis_failed_.size()}};
}

json Hall::metrics_json(Millis now) {
    while (!recent_actions_.empty() && recent_actions_.front() < now - 10000) recent_actions_.pop_front();
    int playing = 0;
    for (const auto& [tid, t] : host_->tables()) playing += t.table->state() == TableState::playing;
    int signed_in = 0;
    for (const auto& [id, c] : conns_) signed_in += !c.name.empty();
    const std::vector<double> lat(latencies_ms_.begin(), latencies_ms_.end());
    const double window = std::max<double>(1.0, std::min<double>(10.0, static_cast<double>(now - started_) / 1000.0));
    const StoreWriter::Counts& w = writer_->counts();
    json m = {{"tables", host_->tables().size()}, {"tables_playing", playing}, {"connections", conns_.size()},
            {"signed_in", signed_in}, {"actions_total", actions_total_},
            {"actions_per_second", static_cast<double>(recent_actions_.size()) / window},
            {"latency_ms", {{"p50", percentile(lat, 0.5)}, {"p90", percentile(lat, 0.9)}, {"p99", percentile(lat, 0.99)},
                            {"max", lat.empty() ? 0.0 : *std::max_element(lat.begin(), lat.end())}}},
            {"uptime_s", (now - started_) / 1000}, {"storage_errors", storage_errors_},
            {"storage", storage_failing_ ? json(*storage_failing_) : json("ok")},
            {"write_queue", writer_ ? writer_->waiting() : 0},
            // The tables' timers (hall.hpp "touch"): heap entries, and overdue tables the sweep found.
            {"timers", {{"pending", host_->timers_pending()}, {"late", host_->late_timers()}}},
            // Group commit (StoreWriter): transactions of table changes and the changes in them.
            {"journal", {{"batches", w.batches}, {"writes", w.writes},
                         {"writes_per_batch", w.batches ? static_cast<double>(w.writes) / static_cast<double>(w.batches) : 0.0},
                         {"last_batch", w.last_batch}, {"max_batch", w.max_batch}}},
            {"analysis", analysis_metrics()},
            {"passwords", {{"queued", passwords_ ? passwords_->waiting() : 0}, {"refused", password_refusals_}}}};
    if (cluster_.metrics) m["cluster"] = cluster_.metrics();  // a cluster node's own figures
    return m;
}

}  // namespace tarneeb::server
