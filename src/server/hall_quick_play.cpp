// The hall, quick play (issue 28; docs/protocol.md "Quick play"; the choice of a table:
// quick_play.hpp). The hall's other roles: hall.cpp, hall_admission.cpp, hall_lobby.cpp,
// hall_http.cpp, hall_metrics.cpp, hall_analysis.cpp, hall_fairplay.cpp.
//
// One quick_play at a time, in arrival order: where the guest is (Tables::locate: a seated
// guest is refused), its rating (read on the writer thread), then the lobby's quick-play tables
// — this node's and, in a cluster, the other nodes' (remote_lobby_, read every directory
// refresh) — and a join through Tables (routed to the node that runs the table). A chosen table
// that filled before the join reached it is passed over (three tries), then a new quick-play
// table is made here and the guest sits at seat 0; its empty seats get bots at its fill time.
// Two players asking on two nodes within one directory refresh may each make a table.
#include "tarneeb/server/hall.hpp"
#include "tarneeb/server/quick_play.hpp"
#include "tarneeb/store/rating.hpp"

namespace tarneeb::server {

using nlohmann::json;

namespace {

/// The answer: where the guest now sits.
json quick_seated_json(const std::string& table, Seat seat) {
    json j = ok_json();
    j["table"] = table;
    j["seat"] = index(seat);
    return j;
}

}  // namespace

void Hall::on_quick_play(ConnId conn, Conn& c, const QuickPlayRequest& q, const json& id) {
    hold(conn);
    quick_queue_.push_back(QuickJob{conn, id, c.name, c.address, *q.preset});
    next_quick_play();
}

void Hall::next_quick_play() {
    if (quick_running_ || quick_queue_.empty()) return;
    quick_running_ = true;
    QuickJob job = std::move(quick_queue_.front());
    quick_queue_.pop_front();
    tables_->locate(job.guest, [this, job](std::optional<Place> place) {
        if (place && place->seat)
            return quick_done(job, error_json(kAlreadySeated, "leave your table first (" + place->table + ")"));
        auto rating = std::make_shared<double>(kStartRating);
        on_writer(
            "read", [rating, guest = job.guest](Storage& s) { *rating = s.rating(guest); },
            [this, job, rating](const std::optional<StorageError>& e) {
                if (e) return quick_done(job, storage_error_json(*e));
                quick_seat(job, static_cast<int>(*rating + 0.5), 0);
            },
            /*write=*/false);
    }, /*returning=*/false);
}

std::vector<json> Hall::quick_summaries() const {
    std::vector<json> all;
    for (const auto& [tid, t] : host_->tables())
        if (t.table->settings().quick && !t.table->settings().is_private) all.push_back(summary_json(*t.table, t.spectators));
    for (const auto& [tid, t] : remote_lobby_)
        if (t->contains("quick")) all.push_back(*t);
    return all;
}

void Hall::quick_seat(const QuickJob& job, int rating, int tries) {
    const std::optional<QuickSeat> pick =
        tries < 3 ? choose_quick_table(quick_summaries(), job.preset, rating, now_, config_.timing.quick_fill_ms) : std::nullopt;
    if (pick) {
        JoinRequest j{pick->table, std::nullopt, true, pick->seat};
        tables_->request(job.guest, j, [this, job, rating, tries, seat = *pick](json body) {
            if (body.value("type", "") == "ok") return quick_done(job, quick_seated_json(seat.table, seat.seat));
            // Filled, started or gone before the join reached it: choose again.
            const std::string code = body.value("code", "");
            if (code == to_string(ProtocolError::seat_taken) || code == to_string(ProtocolError::table_playing) ||
                code == to_string(ProtocolError::no_such_table))
                return quick_seat(job, rating, tries + 1);
            quick_done(job, std::move(body));
        });
        return;
    }
    CreateRequest create;
    create.settings.preset = job.preset;
    create.settings.quick = true;
    create.settings.quick_rating = rating;
    host_->create(job.guest, job.address, create, [this, job](json made) {
        if (made.value("type", "") != "created") return quick_done(job, std::move(made));
        const std::string tid = made["table"];
        tables_->request(job.guest, JoinRequest{tid, std::nullopt, true, Seat::s0}, [this, job, tid](json body) {
            quick_done(job, body.value("type", "") == "ok" ? quick_seated_json(tid, Seat::s0) : std::move(body));
        });
    });
}

void Hall::merge_quick_tables() {
    if (quick_running_ || now_ - quick_merged_ < 1000) return;  // a quick_play is being placed: the lobby moves
    quick_merged_ = now_;
    std::optional<std::vector<json>> summaries;  // read once, when a lone person is found
    for (const auto& [tid, t] : host_->tables()) {
        const Table& table = *t.table;
        if (!table.settings().quick || table.state() != TableState::waiting || !table.fill_at() || *table.fill_at() <= now_)
            continue;
        std::optional<std::string> alone;  // its one person, when nobody else (person or bot) sits there
        int seated = 0;
        for (const Seat s : kSeats) {
            const SeatInfo info = table.seat_info(s);
            if (info.kind == SeatInfo::Kind::empty) continue;
            ++seated;
            if (info.kind == SeatInfo::Kind::human) alone = info.name;
        }
        if (seated != 1 || !alone) continue;
        // Only a person connected here and not in the middle of a request of its own.
        auto g = guests_.find(*alone);
        if (g == guests_.end() || g->second.busy || g->second.conns.empty()) continue;
        if (!summaries) summaries = quick_summaries();
        const auto pick = choose_quick_table(*summaries, table.settings().preset, table.settings().quick_rating, now_,
                                             config_.timing.quick_fill_ms, tid);
        if (!pick || !quick_before(*pick, QuickSeat{tid, Seat::s0, 1, *table.fill_at()})) continue;
        // The move is the guest's next request: its own wait until it is answered.
        const std::string guest = *alone;
        g->second.busy = true;
        if (out_.log) out_.log(false, "event=quick_play_merged from=" + tid + " to=" + pick->table);
        tables_->request(guest, JoinRequest{pick->table, std::nullopt, true, pick->seat}, [this, guest](json) {
            if (auto at = guests_.find(guest); at != guests_.end()) {
                at->second.busy = false;
                for (ConnId c : at->second.conns) pumps_.push_back(c);
                if (at->second.conns.empty()) guests_.erase(at);  // closed meanwhile
            }
            run_pumps();
        });
        return;  // one at a time: the lobby changes with it
    }
}

void Hall::quick_done(const QuickJob& job, json body) {
    release(job.conn);
    reply(job.conn, job.id, std::move(body));
    quick_running_ = false;
    next_quick_play();
}

}  // namespace tarneeb::server
