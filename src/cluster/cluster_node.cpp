// One node of a cluster (include/tarneeb/cluster/cluster_node.hpp says how it works).
#include "tarneeb/cluster/cluster_node.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

namespace tarneeb::server {

using nlohmann::json;

namespace {

Millis unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

ClusterNode::ClusterNode(ClusterConfig config, std::unique_ptr<ClusterLink> link, Hall& hall, std::unique_ptr<Storage> scan,
                         Outbox loop)
    : config_(std::move(config)), link_(std::move(link)), hall_(hall), scan_(std::move(scan)), loop_(std::move(loop)),
      me_(link_->self()) {
    work_ = std::make_unique<WorkQueue>("cluster", 1, 1024);
    RoutedTables::Node node{me_,
                            [this](const NodeId& to, json msg) {
                                publish(to, std::move(msg));
                                return true;  // a dropped message is a request with no answer: its timeout answers it
                            },
                            [this](const std::string& table, std::function<void(std::optional<NodeId>)> done) {
                                owner(table, std::move(done));
                            },
                            [this] { return clock(); }};
    node.seat_of = [this](const std::string& guest, RoutedTables::SeatRead done) {
        seat_of(guest, std::move(done));
    };
    node.forget_seat = [this](const std::string& guest, const std::string& table) {
        work_->submit([this, guest, table] { link_->unseat(table, {guest}); });  // best effort
    };
    node.request_timeout = config_.request_timeout.count();
    node.settle = 2 * config_.refresh.count();
    node.orphan_wait = config_.orphan_wait.count();
    if (loop_.log) node.warn = [log = loop_.log](const std::string& line) { log(false, line); };
    tables_ = std::make_unique<RoutedTables>(hall_, std::move(node));
    auto alive = std::weak_ptr<bool>(alive_);
    link_->start(
        [this, alive](json msg) {
            loop_.post([this, alive, msg = std::move(msg)] {
                if (alive.expired()) return;
                try {
                    received(msg);
                } catch (const std::exception&) {
                    ++dropped_;  // a field of the wrong type: the message goes, the loop stays up
                }
                hall_.handle_waiting();
            });
        },
        [this, alive](const std::string& table, const std::string& code) {
            loop_.post([this, alive, table, code] {
                if (alive.expired()) return;
                if (loop_.log) loop_.log(true, "event=lease_lost table=" + table + " code=" + code);
                hall_.drop_table(table);
            });
        });
    ClusterHooks hooks;
    // On the hall's writer thread: a new table is this node's before anybody can see it.
    hooks.take = [this](Storage& s, const std::string& table) { return link_->take(s, table); };
    // Seat records Redis did not take are written, or cleared, again after the next good exchange.
    hooks.seated = [this](const std::string& table, const std::vector<std::string>& guests) {
        ClusterLink::SeatWrite w = link_->seat(table, guests);
        if (!w.failed.empty()) restore_seats_ = true;
        return std::move(w.elsewhere);
    };
    hooks.restored = [this](const std::string& table, const std::vector<std::string>& guests) {
        if (!link_->seat(table, guests).failed.empty()) restore_seats_ = true;
    };
    hooks.unseated = [this](const std::string& table, const std::vector<std::string>& guests) {
        const std::vector<std::string> failed = link_->unseat(table, guests);
        std::lock_guard lock(unclear_mutex_);
        for (const auto& g : failed) unclear_.emplace_back(table, g);
    };
    hooks.released = [this](const std::string& table) {
        link_->release(table);
        tables_->released(table);
    };
    if (link_->uses_redis()) hooks.failing = [this] { return failing_; };
    hooks.metrics = [this] {
        json m = link_->metrics();
        m.update(json{{"node", me_.name}, {"instance", me_.instance}, {"nodes", nodes_.size()}, {"messages_sent", sent_},
                      {"messages_received", received_},
                      {"messages_dropped", dropped_ + m.value("publish_failures", std::uint64_t{0})},
                      {"tables_adopted", adopted_}, {"directory_refreshes", refreshes_}});
        m.update(tables_->metrics());
        m.erase("publish_failures");
        if (link_->uses_redis()) m["redis"] = failing_ ? json(*failing_) : json("ok");
        return m;
    };
    hooks.tournaments = false;  // tournaments live in one hall's memory: not in a cluster
    // A guest's other connections may be on any node: each closes its own.
    hooks.signed_out = [this](const std::string& name, const std::string& only, const std::string& keep) {
        for (const auto& other : nodes_)
            if (!(other == me_)) publish(other, {{"k", "sign_out"}, {"n", name}, {"o", only}, {"h", keep}});
    };
    hooks.tables = tables_.get();
    hooks.fronts = tables_.get();
    hall_.set_cluster(std::move(hooks));
}

ClusterNode::~ClusterNode() { stop(); }

void ClusterNode::stop() {
    if (!alive_) return;
    alive_.reset();
    if (work_) work_->stop();
    link_->stop();
}

// ---- messages between nodes ---------------------------------------------------------------

void ClusterNode::publish(const NodeId& to, json msg) {
    ++sent_;
    if (!link_->publish(to, std::move(msg))) ++dropped_;
}

void ClusterNode::received(const json& msg) {
    ++received_;
    const auto from = NodeId::parse(msg.value("from", ""));
    if (!from) return;
    const std::string kind = msg.value("k", "");
    clock();
    if (kind == "sign_out") return hall_.sign_out_here(msg.value("n", ""), msg.value("o", ""), msg.value("h", ""));
    tables_->received(*from, kind, msg);
}

void ClusterNode::owner(const std::string& table, std::function<void(std::optional<NodeId>)> done) {
    ++lookups_;
    auto alive = std::weak_ptr<bool>(alive_);
    auto answer = std::make_shared<std::function<void(std::optional<NodeId>)>>(std::move(done));
    auto back = [this, alive, answer](std::optional<NodeId> owner) {
        loop_.post([this, alive, answer, owner] {
            if (alive.expired()) return;
            --lookups_;
            (*answer)(owner);
            hall_.handle_waiting();
        });
    };
    if (!work_->submit([this, table, back] { back(link_->owner(table)); })) back(std::nullopt);
}

void ClusterNode::seat_of(const std::string& guest, RoutedTables::SeatRead done) {
    ++lookups_;
    seats_wanted_.emplace_back(guest, std::move(done));
    if (!reading_seats_) read_seats();
}

void ClusterNode::read_seats() {
    // One read on the worker at a time, of every record asked for meanwhile (a node killed under
    // load sends thousands of returning guests to the others within a second).
    constexpr std::size_t kMaxBatch = 1000;
    const std::size_t n = std::min(seats_wanted_.size(), kMaxBatch);
    if (n == 0) return;
    auto batch = std::make_shared<std::vector<SeatWanted>>(std::make_move_iterator(seats_wanted_.begin()),
                                                          std::make_move_iterator(seats_wanted_.begin() + static_cast<std::ptrdiff_t>(n)));
    seats_wanted_.erase(seats_wanted_.begin(), seats_wanted_.begin() + static_cast<std::ptrdiff_t>(n));
    reading_seats_ = true;
    auto alive = std::weak_ptr<bool>(alive_);
    auto back = [this, alive, batch](std::optional<std::vector<std::optional<std::string>>> tables) {
        loop_.post([this, alive, batch, tables = std::move(tables)]() mutable {
            if (alive.expired()) return;
            reading_seats_ = false;
            lookups_ -= static_cast<int>(batch->size());
            const bool read = tables && tables->size() == batch->size();
            for (std::size_t i = 0; i < batch->size(); ++i)
                (*batch)[i].second(read ? std::move((*tables)[i]) : std::nullopt, /*unread=*/!read);
            read_seats();
            hall_.handle_waiting();
        });
    };
    std::vector<std::string> guests;
    guests.reserve(n);
    for (const auto& [guest, done] : *batch) guests.push_back(guest);
    if (!work_->submit([this, guests = std::move(guests), back] { back(link_->seats_of(guests)); })) back(std::nullopt);
}

void ClusterNode::clear_again() {
    std::vector<std::pair<std::string, std::string>> unclear;
    {
        std::lock_guard lock(unclear_mutex_);
        unclear.swap(unclear_);
    }
    // Decided here, on the loop, and cleared on the writer: a guest who sits at that table
    // again meanwhile keeps its record (its seat's own write is queued after this, or before
    // and then the host seats it here).
    for (auto& [table, guest] : unclear)
        if (auto p = hall_.host().where(guest); !p || p->table != table || !p->seat) hall_.forget_seats(table, {guest});
}

Millis ClusterNode::clock() { return now_ = std::max(now_, unix_ms()); }

void ClusterNode::tick(Millis now) {
    now_ = std::max(now_, now);
    // The subscriber connected again, or the publisher works again after dropping messages (Redis
    // restarted, or the link broke): messages may be lost.
    if (const std::uint64_t sessions = link_->sessions(); sessions != subscriber_sessions_) {
        const bool again = subscriber_sessions_ != 0;
        subscriber_sessions_ = sessions;
        if (again) {
            // Redis may have lost the seat records (it restarted): they are written again now,
            // so that a returning player finds its record at once, and once more after the next
            // good exchange (which also offers the seats to whoever signed in meanwhile).
            hall_.restore_seats();
            restore_seats_ = true;
            tables_->resync();
            if (loop_.log) loop_.log(false, "event=cluster_resync");
        }
    }
    tables_->tick(now);
    hall_.handle_waiting();
    if (refreshing_ || now - last_refresh_ < config_.refresh.count()) return;
    refresh(now);
}

// ---- the directory, the orphan scan and routes -----------------------------------------------

void ClusterNode::refresh(Millis now) {
    refreshing_ = true;
    last_refresh_ = now;
    std::vector<LobbyEntry> mine;
    for (auto& [id, summary] : hall_.host().summaries()) mine.push_back({me_.name, id, summary.dump()});
    auto alive = std::weak_ptr<bool>(alive_);
    const bool queued = work_->submit([this, alive, now, mine = std::move(mine)]() mutable {
        Directory d = scan(std::move(mine));
        d.read_at = now;
        loop_.post([this, alive, d = std::move(d)]() mutable {
            if (!alive.expired()) applied(std::move(d), clock());
        });
    });
    if (!queued) refreshing_ = false;
}

ClusterNode::Directory ClusterNode::scan(std::vector<LobbyEntry> mine) {
    Directory d;
    try {
        ClusterLink::View view = link_->exchange(mine);
        d.nodes = view.nodes;
        // Every node's summaries are read here, off the loop: who runs which table, and the
        // other nodes' public tables for the lobby. (Who sits where: the seat records.)
        std::unordered_map<std::string, ReadSummary> read;
        read.reserve(view.lobby.size());
        for (auto& e : view.lobby) {
            d.table_node[e.table] = e.node;
            const auto last = read_.find(e.table);
            const ReadSummary& r = read[e.table] = read_summary(std::move(e.summary), last == read_.end() ? nullptr : &last->second);
            if (r.summary && r.is_public && e.node != me_.name) d.remote.emplace(e.table, r.summary);
        }
        read_ = std::move(read);
        if (scan_) d.adopt = link_->take_orphans(*scan_, view, config_.max_adopt_per_scan);
    } catch (const ClusterError& e) {
        d.failing = e.code();
    } catch (const StorageError& e) {
        d.scan_failing = e.code();  // the store is away: no table can be taken over now
    } catch (const std::exception& e) {
        d.scan_failing = "storage_io";
    }
    return d;
}

ClusterNode::ReadSummary ClusterNode::read_summary(std::string text, ReadSummary* last) {
    if (last && last->text == text) return std::move(*last);  // the last refresh's map is replaced after
    ReadSummary r;
    r.text = std::move(text);
    json summary = json::parse(r.text, nullptr, false);
    if (!summary.is_object()) return r;
    r.is_public = !summary.value("private", true);
    r.summary = std::make_shared<const json>(std::move(summary));
    return r;
}

void ClusterNode::applied(Directory d, Millis now) {
    refreshing_ = false;
    ++refreshes_;
    if (d.failing != failing_ && loop_.log)
        loop_.log(d.failing.has_value(), d.failing ? "event=cluster_error code=" + *d.failing : "event=cluster_recovered");
    if (failing_ && !d.failing) restore_seats_ = true;  // Redis is back: it may have lost the seat records
    failing_ = d.failing;
    // The seat records are written again once an exchange worked (Redis takes commands again),
    // and tried again after a later one if Redis did not take them.
    const bool restore = !failing_ && restore_seats_.exchange(false);
    if (d.scan_failing != scan_failing_ && loop_.log)
        loop_.log(d.scan_failing.has_value(), d.scan_failing ? "event=scan_error code=" + *d.scan_failing : "event=scan_recovered");
    scan_failing_ = d.scan_failing;
    if (d.failing && d.nodes.empty()) return;  // keep the last directory while Redis is away
    nodes_ = d.nodes;
    RoutedTables::Directory routes;
    for (auto& n : d.nodes) routes.nodes.emplace(n.name, n);
    routes.table_node = std::move(d.table_node);
    routes.read_at = d.read_at;
    for (const auto& [id, hosted] : hall_.host().tables()) routes.table_node[id] = me_.name;  // fresher than the directory
    hall_.set_remote_lobby(std::move(d.remote));
    for (auto& [live, fence] : d.adopt) {
        const std::string id = live.id;
        if (hall_.adopt(live, fence, now)) {
            ++adopted_;
            routes.table_node[id] = me_.name;
            if (loop_.log) loop_.log(false, "event=table_adopted table=" + id + " fence=" + std::to_string(fence));
        }
    }
    tables_->directory(std::move(routes));
    if (restore) {
        hall_.restore_seats();
        tables_->offer_seats();  // to whoever signed in while they were missing
    }
    if (!failing_) clear_again();
    hall_.handle_waiting();
}

}  // namespace tarneeb::server
