// The hall, its analysis queue: GET /api/matches/{id}/analysis?deal=N (docs/protocol.md "HTTP
// endpoints", docs/analysis.md "Analysis of a played deal"). The hall's other roles: hall.cpp,
// hall_admission.cpp, hall_lobby.cpp, hall_http.cpp, hall_metrics.cpp.
//
// Threads (docs/architecture.md "Server threads"): the database is read and written on the
// writer thread (the cached analysis, the match's record, the result); a deal is analysed on
// the analysis threads (--analysis-threads, each job with one DDS thread index of its own for
// its 52 positions); the hall's thread only looks up and updates `analyses_` (the jobs queued
// or running, so that the same deal asked twice is one job) and answers. A job's CPU budget
// (--analysis-budget-ms, the analysis thread's CPU time) is checked between positions.
#include <time.h>

#include <algorithm>
#include <charconv>

#include "tarneeb/records/record.hpp"
#include "tarneeb/server/hall.hpp"
#include "tarneeb/solver/analysis.hpp"

namespace tarneeb::server {

using nlohmann::json;

namespace {

constexpr std::string_view kPrefix = "/api/matches/";
constexpr std::string_view kSuffix = "/analysis";

/// The `deal` parameter of a query string ("deal=3&x=y"): a whole number >= 0, else nullopt.
std::optional<int> deal_param(std::string_view query) {
    for (;;) {
        const auto amp = query.find('&');
        const std::string_view param = query.substr(0, amp);
        if (param.starts_with("deal=")) {
            const std::string_view v = param.substr(5);
            int n = -1;
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
            if (v.empty() || ec != std::errc() || end != v.data() + v.size() || n < 0) return std::nullopt;
            return n;
        }
        if (amp == std::string_view::npos) return std::nullopt;
        query.remove_prefix(amp + 1);
    }
}

/// CPU time of the calling thread in ms.
double thread_cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

}  // namespace

bool Hall::analysis_path(std::string_view path) {
    return path.starts_with(kPrefix) && path.ends_with(kSuffix) && path.size() > kPrefix.size() + kSuffix.size();
}

void Hall::analysis_get(std::string_view path, std::string_view query, const std::string& address,
                        const std::string& token, std::function<void(HttpReply)> done) {
    // Match ids are "t<n>-<m>": nothing in them needs URL escapes, so the id is taken as sent.
    std::string id(path.substr(kPrefix.size(), path.size() - kPrefix.size() - kSuffix.size()));
    const std::optional<int> deal = deal_param(query);
    if (!deal)
        return done(json_reply(400, {{"error", "bad_deal"}, {"message", "give ?deal=N, a deal of the match counted from 0"}}));
    auto key = std::make_pair(std::move(id), *deal);

    // Who may read the match is checked first, every time (a private table's match: its players
    // only), so nothing below tells anyone else whether it exists or is being analysed.
    struct Read {
        std::optional<std::string> cached;
        bool match = false;
        int deals = 0;
        std::optional<Round> round;  ///< the deal asked for, replayed from the record
    };
    auto read = std::make_shared<Read>();
    on_writer(
        "read",
        [key, read, token, now = now_](Storage& s) {
            // Only finished matches are stored: a match in progress is not found here.
            if (!s.match_readable(key.first, viewer_of(s, token, now))) return;
            read->match = true;
            read->cached = s.match_analysis(key.first, key.second);
            if (read->cached) return;
            const auto record = s.match_record(key.first);
            if (!record) return;
            const records::Replay rep = records::replay(*record);
            const auto& rounds = rep.match.rounds();
            read->deals = static_cast<int>(rounds.size());
            if (key.second < read->deals) read->round = rounds[static_cast<std::size_t>(key.second)];
        },
        [this, key, read, address, done = std::move(done)](const std::optional<StorageError>& e) {
            if (e) return done(json_reply(503, {{"error", "storage_unavailable"}, {"code", e->code()}}));
            if (!read->match) return done(json_reply(404, {{"error", "no_such_match"}}));
            if (read->cached) return done(HttpReply{200, "application/json", std::move(*read->cached)});
            if (!read->round)
                return done(json_reply(400, {{"error", "bad_deal"}, {"deals", read->deals},
                                             {"message", "the match has deals 0.." + std::to_string(read->deals - 1)}}));
            // Asked before (or again while the read was in flight): the same job.
            if (analyses_.contains(key)) return done(analysis_pending(key));
            if (auto f = analysis_failed_.find(key); f != analysis_failed_.end())
                return done(json_reply(422, {{"status", "failed"}, {"error", f->second}}));
            if (auto refused = analysis_refusal(address)) return done(std::move(*refused));
            if (!queue_analysis(key.first, key.second, *read->round, address))
                return done(json_reply(503, {{"error", "analysis_busy"}}));
            done(analysis_pending(key));
        },
        /*write=*/false);
}

std::optional<HttpReply> Hall::analysis_refusal(const std::string& address) const {
    if (analyses_.size() >= std::max<std::size_t>(1, config_.analysis_queue))
        return json_reply(503, {{"error", "analysis_busy"}, {"scope", "server"}});
    const auto mine = std::count_if(analyses_.begin(), analyses_.end(), [&](const auto& a) { return a.second.address == address; });
    if (static_cast<std::size_t>(mine) >= std::max<std::size_t>(1, config_.analysis_per_address))
        return json_reply(503, {{"error", "analysis_busy"}, {"scope", "address"}});
    return std::nullopt;
}

bool Hall::queue_analysis(const std::string& id, int deal, const Round& round, const std::string& address) {
    auto key = std::make_pair(id, deal);
    AnalysisJob job;
    job.address = address;
    ++outstanding_;
    auto alive = std::weak_ptr<bool>(alive_);
    const bool queued = analysts_->submit([this, alive, stop = analysis_stop_, running = job.running, key, round,
                                           budget = static_cast<double>(config_.analysis_budget_ms)] {
        std::string body, error;
        if (*stop) {
            error = "stopped";
        } else {
            *running = true;
            const double start = thread_cpu_ms();
            solver::DealAnalysis a;
            const solver::SolveError e = solver::analyse_deal(
                round, a, [&](int) { return !*stop && thread_cpu_ms() - start <= budget; });
            if (e == solver::SolveError::ok) {
                json j = solver::analysis_json(a, key.second);
                j["match"] = key.first;
                body = j.dump();
            } else if (e == solver::SolveError::stopped) {
                error = *stop ? "stopped" : "too_slow";
            } else {
                error = "solver_error";
            }
        }
        out_.post([this, alive, key, body = std::move(body), error = std::move(error)]() mutable {
            if (alive.expired()) return;
            --outstanding_;
            analysis_finished(key, std::move(body), error);
            run_pumps();
        });
    });
    if (!queued) {  // the hall is stopping
        --outstanding_;
        return false;
    }
    analyses_.emplace(std::move(key), std::move(job));
    return true;
}

void Hall::analysis_finished(const std::pair<std::string, int>& key, std::string body, const std::string& error) {
    if (!error.empty()) {
        // Kept in memory only: not retried while this server runs, tried again after a restart.
        if (error != "stopped" && analysis_failed_.emplace(key, error).second) {
            analysis_failed_order_.push_back(key);
            if (analysis_failed_order_.size() > kMaxFailedAnalyses) {
                analysis_failed_.erase(analysis_failed_order_.front());
                analysis_failed_order_.pop_front();
            }
        }
        analyses_.erase(key);
        return;
    }
    // Stored by the writer thread; until then the job still answers 202 "running". A failed
    // write loses the result: the next request queues it again.
    on_writer(
        "store_analysis", [key, body = std::move(body)](Storage& s) { s.store_analysis(key.first, key.second, body); },
        [this, key](const std::optional<StorageError>& e) {
            analyses_.erase(key);
            if (!e) ++analyses_done_;
        });
}

HttpReply Hall::analysis_pending(const std::pair<std::string, int>& key) const {
    const bool running = *analyses_.at(key).running;
    std::size_t queued = 0;
    for (const auto& [k, job] : analyses_) queued += !*job.running;
    const std::size_t threads = std::max(1u, config_.analysis_threads);
    // A deal takes about 0.35 s of CPU (docs/performance.md "Analysis").
    const std::size_t retry = running ? 500 : std::min<std::size_t>(5000, 500 * (1 + queued / threads));
    return json_reply(202, {{"status", running ? "running" : "queued"}, {"retry_after_ms", retry},
                            {"match", key.first}, {"deal", key.second}});
}

}  // namespace tarneeb::server
