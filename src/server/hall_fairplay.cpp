// The hall, its fair-play report for operators: GET /api/fairplay (issue 27; docs/operations.md
// "Fair-play report", docs/fairplay.md "On the server"). The hall's other roles: hall.cpp,
// hall_admission.cpp, hall_lobby.cpp, hall_http.cpp, hall_metrics.cpp, hall_analysis.cpp.
//
// Who: only a request whose `Authorization: Bearer` token is the operator's (serve
// --operator-token-file; compared in constant time); a server started without one does not
// serve the path (404, as any unknown path), and a wrong or missing token is 401. A list of
// suspected cheaters is never public.
// Threads: the newest rated matches' records and their players' ratings are read on the writer
// thread; they are replayed, solved and scored on the analysis queue (the report's one job, its
// records tallied one after the other, stopped when the hall stops), never on the hall's thread.
// One report at a time: asked again meanwhile, the answer is 202; the last report is kept in
// memory and answered until `fresh=1` asks for a new one.
#include <sodium.h>

#include <set>

#include "tarneeb/fairplay/report.hpp"
#include "tarneeb/server/hall.hpp"
#include "tarneeb/server/http_query.hpp"

namespace tarneeb::server {

using nlohmann::json;

namespace {

/// Matches read when the request does not say (the `matches` parameter), and at most.
constexpr int kFairplayMatches = 500;
constexpr int kMaxFairplayMatches = 5000;
/// The layouts re-dealt for the hidden-dependent decisions: the same as `tarneeb fairplay`'s default.
constexpr std::uint64_t kFairplaySeed = 1;

/// Whether `token` is the operator's: equal lengths, then every byte compared (sodium_memcmp
/// takes the same time wherever they differ).
bool operator_token(const std::string& expected, const std::string& token) {
    return !expected.empty() && token.size() == expected.size() &&
           sodium_memcmp(token.data(), expected.data(), expected.size()) == 0;
}

}  // namespace

void Hall::fairplay_get(std::string_view query, const std::string& token, std::function<void(HttpReply)> done) {
    if (config_.operator_token.empty()) return done(json_reply(404, {{"error", "not_found"}}));
    if (!operator_token(config_.operator_token, token))
        return done(json_reply(401, {{"error", "unauthorized"}, {"message", "the operator's bearer token is needed"}}));
    const std::optional<int> matches = int_param(query, "matches", kFairplayMatches, 1, kMaxFairplayMatches);
    const std::optional<int> fresh = int_param(query, "fresh", 0, 0, 1);
    if (!matches || !fresh)
        return done(json_reply(400, {{"error", "bad_request"},
                                         {"message", "matches=1.." + std::to_string(kMaxFairplayMatches) + ", fresh=0|1"}}));
    auto pending = [this] {
        return json_reply(202, {{"status", "running"}, {"matches", fairplay_.matches}, {"retry_after_ms", 2000}});
    };
    if (fairplay_.running) return done(pending());
    if (fairplay_.report && !*fresh && fairplay_.asked == *matches)
        return done(HttpReply{200, "application/json", *fairplay_.report});
    fairplay_.running = true;
    fairplay_.matches = *matches;
    struct Read {
        std::vector<std::string> records;
        std::map<std::string, double> ratings;
    };
    auto read = std::make_shared<Read>();
    on_writer(
        "read",
        [read, n = *matches](Storage& s) {
            std::set<std::string> names;
            for (const RatedMatch& m : s.rated_matches(n)) {
                auto text = s.match_record(m.id);
                if (!text) continue;
                read->records.push_back(std::move(*text));
                names.insert(m.names.begin(), m.names.end());
            }
            for (const std::string& name : names) read->ratings[name] = s.rating(name);
        },
        [this, read, n = *matches, pending, done = std::move(done)](const std::optional<StorageError>& e) {
            if (e) {
                fairplay_.running = false;
                return done(json_reply(503, {{"error", "storage_unavailable"}, {"code", e->code()}}));
            }
            queue_fairplay(n, std::move(read->records), std::move(read->ratings));
            done(fairplay_.running ? pending() : json_reply(503, {{"error", "analysis_busy"}}));
        },
        /*write=*/false);
}

void Hall::queue_fairplay(int matches, std::vector<std::string> records, std::map<std::string, double> ratings) {
    ++outstanding_;
    auto alive = std::weak_ptr<bool>(alive_);
    const bool queued = analysts_->submit([this, alive, stop = analysis_stop_, matches, records = std::move(records),
                                           ratings = std::move(ratings)] {
        std::vector<fairplay::MatchTally> tallies;
        int rejected = 0;
        for (std::size_t k = 0; k < records.size() && !*stop; ++k) {
            fairplay::MatchTally t;
            if (fairplay::tally_record(records[k], "match " + std::to_string(k), kFairplaySeed, t)) {
                ++rejected;
                continue;
            }
            for (int seat = 0; seat < 4; ++seat)
                if (auto r = ratings.find(t.names[static_cast<std::size_t>(seat)]); r != ratings.end())
                    t.ratings[static_cast<std::size_t>(seat)] = r->second;
            tallies.push_back(std::move(t));
        }
        std::string body;
        if (!*stop) {
            json report = fairplay::report_json(fairplay::build_report(tallies));
            report["rejected"] = rejected;
            body = report.dump();
        }
        out_.post([this, alive, matches, body = std::move(body)]() mutable {
            if (alive.expired()) return;
            --outstanding_;
            fairplay_.running = false;
            if (!body.empty()) {
                fairplay_.report = std::move(body);
                fairplay_.asked = matches;
            }
            run_pumps();
        });
    });
    if (!queued) {  // the queue is full or the hall is stopping
        --outstanding_;
        fairplay_.running = false;
    }
}

}  // namespace tarneeb::server
