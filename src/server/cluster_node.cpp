// One node of a cluster (include/tarneeb/server/cluster_node.hpp says how it works).
#include "tarneeb/server/cluster_node.hpp"

#include <algorithm>
#include <utility>

namespace tarneeb::server {

using nlohmann::json;

namespace {

/// True when `text` may be a client message of type `type` (a cheap test before parsing).
bool mentions(std::string_view text, std::string_view quoted) { return text.find(quoted) != std::string_view::npos; }

}  // namespace

ClusterNode::ClusterNode(ClusterConfig config, Hall& hall, std::unique_ptr<Storage> scan, Outbox sockets)
    : config_(std::move(config)), hall_(hall), scan_(std::move(scan)), sockets_(std::move(sockets)),
      me_(NodeId::fresh(config_.node)), redis_(config_.redis), pub_redis_(config_.redis),
      leases_(redis_, config_.prefix), directory_(redis_, config_.prefix) {
    work_ = std::make_unique<WorkQueue>("cluster", 1, 1024);
    publisher_ = std::make_unique<WorkQueue>("publish", 1, config_.publish_queue);
    auto alive = std::weak_ptr<bool>(alive_);
    keeper_ = std::make_unique<LeaseKeeper>(leases_, me_, config_.lease_ttl, [this, alive](const std::string& table, const std::string& code) {
        // On the keeper's thread: take the lease again when it is free (Redis restarted empty,
        // or this node paused past it and nobody took the table), else the table goes.
        work_->submit([this, alive, table, code] {
            bool again = false;
            try {
                again = keeper_->acquire(table);
            } catch (const ClusterError&) {
            }
            if (again) return;
            sockets_.post([this, alive, table, code] {
                if (alive.expired()) return;
                if (sockets_.log) sockets_.log(true, "event=lease_lost table=" + table + " code=" + code);
                hall_.drop_table(table);
            });
        });
    });
    subscriber_ = std::make_unique<Subscriber>(config_.redis, [this, alive, mine = me_.text()](const PubSubMessage& m) {
        // Parsed here, on the subscriber's thread; only messages for this instance go on.
        json msg = json::parse(m.payload, nullptr, false);
        if (!msg.is_object() || !msg.contains("to") || msg["to"] != mine) return;
        sockets_.post([this, alive, msg = std::move(msg)] {
            if (alive.expired()) return;
            try {
                received(msg);
            } catch (const std::exception&) {
                ++dropped_;  // a field of the wrong type: the message goes, the loop stays up
            }
        });
    });
    subscriber_->subscribe(config_.prefix + ":to:" + me_.name);
    hall_.set_cluster(ClusterHooks{
        // On the hall's writer thread: a new table is this node's before anybody can see it.
        [this](Storage& s, const std::string& table) -> std::int64_t {
            bool taken = false;
            try {
                taken = keeper_->acquire(table);
            } catch (const ClusterError& e) {
                throw StorageError("storage_unavailable", std::string("redis: ") + e.what());
            }
            if (!taken) throw StorageError("storage_fenced", "another node took table " + table);
            return s.claim_table(table, me_.text());
        },
        [this](const std::string& table) {
            work_->submit([this, table] {
                try {
                    keeper_->release(table);
                } catch (const ClusterError&) {
                }  // it expires by itself
            });
        },
        [this] { return failing_; },
        [this] {
            return json{{"node", me_.name},       {"instance", me_.instance},  {"nodes", nodes_.size()},
                        {"relayed_out", std::count_if(fronts_.begin(), fronts_.end(), [](const auto& f) { return f.second.target.has_value(); })},
                        {"relayed_in", remotes_.size()}, {"messages_sent", sent_}, {"messages_received", received_},
                        {"messages_dropped", dropped_ + publish_failures_->load()}, {"tables_adopted", adopted_},
                        {"moves", moves_},           {"leases", keeper_->held().size()},
                        {"redis", failing_ ? json(*failing_) : json("ok")}};
        }});
}

ClusterNode::~ClusterNode() { stop(); }

void ClusterNode::stop() {
    if (!alive_) return;
    alive_.reset();
    if (subscriber_) subscriber_->stop();
    if (keeper_) keeper_->stop();
    if (work_) {
        work_->submit([this] {
            try {
                directory_.leave(me_);
            } catch (const ClusterError&) {
            }
        });
        work_->stop();
    }
    if (publisher_) publisher_->stop();
}

// ---- messages between nodes ---------------------------------------------------------------

void ClusterNode::publish(const NodeId& to, json msg) {
    msg["to"] = to.text();
    msg["from"] = me_.text();
    ++sent_;
    const bool queued = publisher_->submit([this, channel = config_.prefix + ":to:" + to.name, text = msg.dump(),
                                            failures = publish_failures_] {
        try {
            pub_redis_.publish(channel, text);
        } catch (const ClusterError&) {
            ++*failures;  // at most once: the receiver recovers (docs/scaling.md)
        }
    });
    if (!queued) ++dropped_;
}

void ClusterNode::received(const json& msg) {
    ++received_;
    const auto from = NodeId::parse(msg.value("from", ""));
    if (!from || !msg.contains("c") || !msg["c"].is_number_unsigned()) return;
    const std::string kind = msg.value("k", "");
    const ConnId c = msg["c"].get<ConnId>();
    const Millis now = now_;
    if (kind == "open" || kind == "frame" || kind == "closed") {  // this node owns what the connection uses
        const auto key = std::make_pair(from->text(), c);
        auto it = remote_ids_.find(key);
        if (kind == "open") {
            if (it != remote_ids_.end()) {  // opened again (a resync): the old one goes first
                hall_.closed(it->second, now);
                remotes_.erase(it->second);
                remote_ids_.erase(it);
            }
            const ConnId id = next_remote_++;
            remote_ids_.emplace(key, id);
            remotes_.emplace(id, Remote{*from, c, std::nullopt});
            hall_.open(id, msg.value("a", "?"), now);
        } else if (it == remote_ids_.end()) {
            return;
        } else if (kind == "frame") {
            hall_.message(it->second, msg.value("t", ""), now);
        } else {
            const ConnId id = it->second;
            remote_ids_.erase(it);
            remotes_.erase(id);
            hall_.closed(id, now);
        }
        return;
    }
    // send, close: for a client of this node, only from the node serving it.
    auto f = fronts_.find(c);
    if (f == fronts_.end() || !f->second.target || !(*f->second.target == *from)) return;
    if (kind == "send") deliver(c, f->second, msg.value("t", ""));
    else if (kind == "close") sockets_.close(c, msg.value("code", 1000), msg.value("r", ""));
    else if (kind == "reset") hand_off(c, *from);  // its node lost messages: open it there again
}

void ClusterNode::resync() {
    // Pub/sub lost whatever was published while this node's subscriber was away: each relayed
    // connection is opened again on its node (signed in again there, so it gets the table's
    // current state), and each node relaying to this one is asked to do the same.
    std::vector<std::pair<ConnId, NodeId>> again;
    for (const auto& [conn, f] : fronts_)
        if (f.target && !f.orphan) again.emplace_back(conn, *f.target);
    for (auto& [conn, to] : again) hand_off(conn, to);
    for (const auto& [id, r] : remotes_) publish(r.front, {{"k", "reset"}, {"c", r.conn}});
    if (sockets_.log) sockets_.log(false, "event=cluster_resync relayed=" + std::to_string(again.size()) +
                                              " relayed_in=" + std::to_string(remotes_.size()));
}

// ---- the transport's side -----------------------------------------------------------------

void ClusterNode::open(ConnId conn, const std::string& address, Millis now) {
    fronts_[conn].address = address;
    hall_.open(conn, address, now);
}

void ClusterNode::message(ConnId conn, std::string_view text, Millis now) {
    now_ = std::max(now_, now);
    auto it = fronts_.find(conn);
    if (it == fronts_.end()) return hall_.message(conn, text, now);
    Front& f = it->second;
    if (f.resolving) {  // its join waits for the table's owner: everything after it waits too
        if (f.held.size() < config_.max_held_frames) f.held.emplace_back(text);
        else ++dropped_;
        return;
    }
    if (f.target) {
        if (f.orphan) {
            if (f.held.size() < config_.max_held_frames) f.held.emplace_back(text);
            else ++dropped_;
            return;
        }
        if (mentions(text, "\"leave\"") || mentions(text, "\"join\"")) note_watching(f, text);
        return publish(*f.target, {{"k", "frame"}, {"c", conn}, {"t", std::string(text)}});
    }
    if (mentions(text, "\"hello\"")) f.watch_welcome = true;  // its welcome names the guest
    if (mentions(text, "\"join\"")) {
        // A join of a table another node runs: that node serves this connection from now on.
        const json msg = json::parse(text, nullptr, false);
        const auto table = msg.is_object() && msg.value("type", "") == "join" && msg.contains("table") && msg["table"].is_string()
                               ? std::optional<std::string>(msg["table"].get<std::string>())
                               : std::nullopt;
        const auto where = hall_.where(conn);
        if (table && !hall_.table(*table) && where && where->first.empty() && !f.token.empty()) {
            auto owner = table_node_.find(*table);
            if (owner != table_node_.end() && owner->second != me_.name) {
                if (auto to = live(owner->second)) {
                    hand_off(conn, *to);
                    note_watching(f, text);
                    return publish(*to, {{"k", "frame"}, {"c", conn}, {"t", std::string(text)}});
                }
            } else if (owner == table_node_.end()) {
                return resolve(conn, *table, std::string(text));  // newer than the directory
            }
        }
    }
    hall_.message(conn, text, now);
}

void ClusterNode::closed(ConnId conn, Millis now) {
    auto it = fronts_.find(conn);
    if (it != fronts_.end() && it->second.target) publish(*it->second.target, {{"k", "closed"}, {"c", conn}});
    else hall_.closed(conn, now);
    if (it != fronts_.end()) fronts_.erase(it);
}

void ClusterNode::tick(Millis now) {
    now_ = std::max(now_, now);
    // The subscriber connected again (Redis restarted, or the link broke): resync the relays.
    if (const std::uint64_t sessions = subscriber_->sessions(); sessions != subscriber_sessions_) {
        const bool again = subscriber_sessions_ != 0;
        subscriber_sessions_ = sessions;
        if (again) resync();
    }
    if (refreshing_ || now - last_refresh_ < config_.refresh.count()) return;
    refresh(now);
}

// ---- the hall's side ------------------------------------------------------------------------

void ClusterNode::hall_send(ConnId conn, std::string text) {
    if (conn >= kRemoteBase) {
        auto r = remotes_.find(conn);
        if (r != remotes_.end()) publish(r->second.front, {{"k", "send"}, {"c", r->second.conn}, {"t", std::move(text)}});
        return;
    }
    auto f = fronts_.find(conn);
    if (f == fronts_.end()) return sockets_.send(conn, std::move(text));
    if (f->second.target) return;  // served by another node now
    deliver(conn, f->second, std::move(text));
}

void ClusterNode::hall_close(ConnId conn, int code, std::string reason) {
    if (conn >= kRemoteBase) {
        auto r = remotes_.find(conn);
        if (r != remotes_.end()) publish(r->second.front, {{"k", "close"}, {"c", r->second.conn}, {"code", code}, {"r", reason}});
        return;
    }
    auto f = fronts_.find(conn);
    if (f != fronts_.end() && f->second.target) return;
    sockets_.close(conn, code, std::move(reason));
}

void ClusterNode::note_watching(Front& f, std::string_view text) {
    const json msg = json::parse(text, nullptr, false);
    if (!msg.is_object()) return;
    const std::string type = msg.value("type", "");
    if (type == "leave") f.watching.clear();
    if (type != "join" || !msg.contains("table") || !msg["table"].is_string()) return;
    const bool seated = msg.contains("seat") && !msg["seat"].is_null();
    f.watching = seated ? std::string() : msg["table"].get<std::string>();
}

void ClusterNode::deliver(ConnId conn, Front& f, std::string text) {
    if ((f.watch_welcome || f.swallow > 0) && (mentions(text, "\"welcome\"") || mentions(text, kRelayId))) {
        const json msg = json::parse(text, nullptr, false);
        const bool relay = msg.is_object() && msg.contains("id") && msg["id"] == kRelayId;
        if (msg.is_object() && msg.value("type", "") == "welcome") {
            f.name = msg.value("name", "");
            f.token = msg.value("token", "");
            f.watch_welcome = false;
        }
        if (relay) {
            f.swallow = std::max(0, f.swallow - 1);
            return;  // the client is signed in (or watching) already
        }
        sockets_.send(conn, std::move(text));
        // Signed in here while seated at a table another node runs: that node serves it.
        if (auto s = seated_.find(f.name); !f.name.empty() && s != seated_.end())
            if (auto t = table_node_.find(s->second); t != table_node_.end() && t->second != me_.name && !hall_.table(s->second))
                if (auto to = live(t->second)) hand_off(conn, *to);
        return;
    }
    sockets_.send(conn, std::move(text));
}

void ClusterNode::resolve(ConnId conn, const std::string& table, std::string text) {
    fronts_.at(conn).resolving = true;
    auto alive = std::weak_ptr<bool>(alive_);
    auto done = [this, alive, conn, text](std::optional<NodeId> owner) {
        sockets_.post([this, alive, conn, text, owner] {
            if (alive.expired()) return;
            auto it = fronts_.find(conn);
            if (it == fronts_.end()) return;
            it->second.resolving = false;
            auto held = std::exchange(it->second.held, {});  // after the join, in order
            // The lease names a node that renewed it within its TTL (it may be newer than the
            // directory this node read last).
            if (owner && !(*owner == me_)) {
                hand_off(conn, *owner);
                note_watching(it->second, text);
                publish(*owner, {{"k", "frame"}, {"c", conn}, {"t", text}});
            } else {
                hall_.message(conn, text, now_);  // here, or nowhere (no_such_table)
            }
            for (auto& h : held) message(conn, h, now_);
        });
    };
    const bool queued = work_->submit([this, table, done] {
        std::optional<NodeId> owner;
        try {
            owner = leases_.owner(table);
        } catch (const ClusterError&) {
        }
        done(owner);
    });
    if (!queued) done(std::nullopt);
}

std::string ClusterNode::relay_hello(const std::string& token) const {
    return json{{"type", "hello"}, {"token", token}, {"id", kRelayId}}.dump();
}

void ClusterNode::hand_off(ConnId conn, const NodeId& to) {
    auto it = fronts_.find(conn);
    if (it == fronts_.end()) return;
    Front& f = it->second;
    const Millis now = now_;
    ++moves_;
    if (f.target) publish(*f.target, {{"k", "closed"}, {"c", conn}});
    else hall_.closed(conn, now);
    f.orphan.reset();
    // Signed in there with its token; a spectator watches its table there again.
    std::vector<std::string> relayed;
    if (!f.token.empty()) relayed.push_back(relay_hello(f.token));
    if (!f.token.empty() && !f.watching.empty() && !seated_.count(f.name))
        relayed.push_back(json{{"type", "join"}, {"table", f.watching}, {"id", kRelayId}}.dump());
    f.swallow = static_cast<int>(relayed.size());
    if (to == me_) {
        f.target.reset();
        hall_.open(conn, f.address, now);
        for (const auto& text : relayed) hall_.message(conn, text, now);
    } else {
        f.target = to;
        publish(to, {{"k", "open"}, {"c", conn}, {"a", f.address}});
        for (const auto& text : relayed) publish(to, {{"k", "frame"}, {"c", conn}, {"t", text}});
    }
    auto held = std::exchange(f.held, {});
    for (auto& text : held) message(conn, text, now);
}

std::optional<NodeId> ClusterNode::live(const std::string& name) const {
    auto it = nodes_.find(name);
    if (it == nodes_.end()) return std::nullopt;
    return it->second;
}

// ---- the directory, the orphan scan and routes -----------------------------------------------

void ClusterNode::refresh(Millis now) {
    refreshing_ = true;
    last_refresh_ = now;
    std::vector<LobbyEntry> mine;
    for (auto& [id, summary] : hall_.table_summaries()) mine.push_back({me_.name, id, summary.dump()});
    auto alive = std::weak_ptr<bool>(alive_);
    const bool queued = work_->submit([this, alive, mine = std::move(mine)]() mutable {
        Directory d = scan(std::move(mine));
        sockets_.post([this, alive, d = std::move(d)]() mutable {
            if (!alive.expired()) applied(std::move(d), now_);
        });
    });
    if (!queued) refreshing_ = false;
}

ClusterNode::Directory ClusterNode::scan(std::vector<LobbyEntry> mine) {
    Directory d;
    try {
        directory_.heartbeat(me_, config_.heartbeat_ttl);
        directory_.set_lobby(me_, mine, config_.heartbeat_ttl);
        d.nodes = directory_.live_nodes();
        d.lobby = directory_.lobby();
        // Every node's summaries are read here, off the loop: who runs which table, who sits
        // where, and the other nodes' public tables for the lobby.
        for (const auto& e : d.lobby) {
            d.table_node[e.table] = e.node;
            json summary = json::parse(e.summary, nullptr, false);
            if (!summary.is_object()) continue;
            note_seated(summary, e.table, d.seated);
            if (e.node != me_.name && !summary.value("private", true)) d.remote.emplace(e.table, std::move(summary));
        }
        // Live tables that no live node lists and that have no lease, on two scans in a row
        // (a table just created is leased by its creator within milliseconds): take them.
        std::set<std::string> listed;
        for (const auto& e : d.lobby) listed.insert(e.table);
        for (const auto& t : keeper_->held()) listed.insert(t);
        std::set<std::string> suspects;
        for (const auto& id : scan_->live_table_ids()) {
            if (listed.count(id) || leases_.owner(id)) continue;
            suspects.insert(id);
            if (!suspects_.count(id) || d.adopt.size() >= config_.max_adopt_per_scan) continue;
            if (!keeper_->acquire(id)) continue;
            const std::int64_t fence = scan_->claim_table(id, me_.text());
            if (auto live = scan_->live_table(id)) d.adopt.emplace_back(std::move(*live), fence);
            else keeper_->release(id);  // closed meanwhile
        }
        suspects_ = std::move(suspects);
    } catch (const ClusterError& e) {
        d.failing = e.code();
    } catch (const StorageError& e) {
        d.scan_failing = e.code();  // the store is away: no table can be taken over now
    } catch (const std::exception& e) {
        d.scan_failing = "storage_io";
    }
    return d;
}

void ClusterNode::note_seated(const json& summary, const std::string& table, std::unordered_map<std::string, std::string>& seated) {
    if (!summary.contains("seats") || !summary["seats"].is_array()) return;
    for (const auto& s : summary["seats"])
        if (s.is_object() && !s.value("bot", false)) seated[s.value("name", "")] = table;
}

void ClusterNode::applied(Directory d, Millis now) {
    refreshing_ = false;
    if (d.failing != failing_ && sockets_.log)
        sockets_.log(d.failing.has_value(), d.failing ? "event=cluster_error code=" + *d.failing : "event=cluster_recovered");
    failing_ = d.failing;
    if (d.scan_failing != scan_failing_ && sockets_.log)
        sockets_.log(d.scan_failing.has_value(), d.scan_failing ? "event=scan_error code=" + *d.scan_failing : "event=scan_recovered");
    scan_failing_ = d.scan_failing;
    if (d.failing && d.nodes.empty()) return;  // keep the last directory while Redis is away
    nodes_.clear();
    for (auto& n : d.nodes) nodes_.emplace(n.name, n);
    table_node_ = std::move(d.table_node);
    seated_ = std::move(d.seated);
    for (auto& [id, s] : hall_.table_summaries()) {  // this node's own, fresher than the directory
        table_node_[id] = me_.name;
        note_seated(s, id, seated_);
    }
    hall_.set_remote_lobby(std::move(d.remote));
    for (auto& [live, fence] : d.adopt) {
        const std::string id = live.id;
        if (hall_.adopt(live, fence, now)) {
            ++adopted_;
            table_node_[id] = me_.name;
            if (sockets_.log) sockets_.log(false, "event=table_adopted table=" + id + " fence=" + std::to_string(fence));
        }
    }
    check_routes(now);
}

void ClusterNode::check_routes(Millis now) {
    // Relayed connections whose front is gone: restarted as a new instance, or missing from the
    // directory for orphan_wait (not at once: after a Redis restart the directory fills again
    // over a refresh or two).
    std::vector<ConnId> gone;
    for (auto& [id, r] : remotes_) {
        const auto n = live(r.front.name);
        if (n && *n == r.front) r.missing.reset();
        else if (n || (r.missing && now - *r.missing >= config_.orphan_wait.count())) gone.push_back(id);
        else if (!r.missing) r.missing = now;
    }
    for (ConnId id : gone) {
        const Remote r = remotes_.at(id);
        remotes_.erase(id);
        remote_ids_.erase({r.front.text(), r.conn});
        hall_.closed(id, now);
    }
    // Each client to the node that runs its guest's table.
    std::vector<std::pair<ConnId, NodeId>> moves;
    std::vector<ConnId> back;
    for (auto& [conn, f] : fronts_) {
        if (f.name.empty() || f.token.empty()) continue;
        const NodeId current = f.target ? *f.target : me_;
        std::optional<NodeId> want;
        const auto s = seated_.find(f.name);
        const std::string table = s != seated_.end() ? s->second : f.watching;  // a spectator follows its table
        if (auto t = table.empty() ? table_node_.end() : table_node_.find(table); t != table_node_.end()) want = live(t->second);
        if (want && !(*want == current)) {
            moves.emplace_back(conn, *want);
            continue;
        }
        if (!f.target) continue;
        if (auto n = live(f.target->name); n && *n == *f.target) {
            if (f.orphan) back.push_back(conn);  // it was only missing from the directory a moment
            continue;
        }
        // Its node is gone: wait for its table's new owner, then serve it here.
        if (!f.orphan) f.orphan = now;
        else if (now - *f.orphan >= config_.orphan_wait.count()) moves.emplace_back(conn, me_);
    }
    for (auto& [conn, to] : moves) hand_off(conn, to);
    for (ConnId conn : back) {
        Front& f = fronts_.at(conn);
        f.orphan.reset();
        for (auto held = std::exchange(f.held, {}); auto& text : held) message(conn, text, now);
    }
}

}  // namespace tarneeb::server
