// One node of a cluster (include/tarneeb/cluster/cluster_node.hpp says how it works).
#include "tarneeb/cluster/cluster_node.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

namespace tarneeb::server {

using nlohmann::json;

namespace {

/// True when `text` may be a client message of type `type` (a cheap test before parsing).
bool mentions(std::string_view text, std::string_view quoted) { return text.find(quoted) != std::string_view::npos; }

Millis unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

ClusterNode::ClusterNode(ClusterConfig config, std::unique_ptr<ClusterLink> link, Hall& hall, std::unique_ptr<Storage> scan,
                         Outbox sockets)
    : config_(std::move(config)), link_(std::move(link)), hall_(hall), scan_(std::move(scan)), sockets_(std::move(sockets)),
      me_(link_->self()) {
    work_ = std::make_unique<WorkQueue>("cluster", 1, 1024);
    auto alive = std::weak_ptr<bool>(alive_);
    link_->start(
        [this, alive](json msg) {
            sockets_.post([this, alive, msg = std::move(msg)] {
                if (alive.expired()) return;
                try {
                    received(msg);
                } catch (const std::exception&) {
                    ++dropped_;  // a field of the wrong type: the message goes, the loop stays up
                }
            });
        },
        [this, alive](const std::string& table, const std::string& code) {
            sockets_.post([this, alive, table, code] {
                if (alive.expired()) return;
                if (sockets_.log) sockets_.log(true, "event=lease_lost table=" + table + " code=" + code);
                hall_.drop_table(table);
            });
        });
    hall_.set_cluster(ClusterHooks{
        // On the hall's writer thread: a new table is this node's before anybody can see it.
        [this](Storage& s, const std::string& table) { return link_->take(s, table); },
        [this](const std::string& table) { link_->release(table); },
        link_->uses_redis() ? std::function<std::optional<std::string>()>([this] { return failing_; }) : nullptr,
        [this] {
            json m = link_->metrics();
            m.update(json{{"node", me_.name},     {"instance", me_.instance}, {"nodes", nodes_.size()},
                          {"relayed_out", std::count_if(fronts_.begin(), fronts_.end(), [](const auto& f) { return f.second.target.has_value(); })},
                          {"relayed_in", remotes_.size()}, {"messages_sent", sent_}, {"messages_received", received_},
                          {"messages_dropped", dropped_ + m.value("publish_failures", std::uint64_t{0})},
                          {"tables_adopted", adopted_}, {"moves", moves_}, {"directory_refreshes", refreshes_},
                          {"draining", draining_.size()}});
            m.erase("publish_failures");
            if (link_->uses_redis()) m["redis"] = failing_ ? json(*failing_) : json("ok");
            return m;
        },
        false,  // tournaments live in one hall's memory: not in a cluster
        // A guest's other connections may be served by any node: each closes its own.
        [this](const std::string& name, const std::string& only, const std::string& keep) {
            for (const auto& [node_name, node] : nodes_)
                if (!(node == me_)) publish(node, {{"k", "sign_out"}, {"c", ConnId{0}}, {"n", name}, {"o", only}, {"h", keep}});
        }});
}

ClusterNode::~ClusterNode() { stop(); }

void ClusterNode::stop() {
    if (!alive_) return;
    alive_.reset();
    if (work_) work_->stop();
    link_->stop();
}

const NodeId& ClusterNode::serving(ConnId conn) const {
    auto it = fronts_.find(conn);
    return it != fronts_.end() && it->second.target ? *it->second.target : me_;
}

bool ClusterNode::idle() const {
    return !refreshing_ && std::none_of(fronts_.begin(), fronts_.end(), [](const auto& f) { return f.second.resolving; });
}

// ---- messages between nodes ---------------------------------------------------------------

void ClusterNode::publish(const NodeId& to, json msg) {
    ++sent_;
    if (!link_->publish(to, std::move(msg))) ++dropped_;
}

void ClusterNode::received(const json& msg) {
    ++received_;
    const auto from = NodeId::parse(msg.value("from", ""));
    if (!from || !msg.contains("c") || !msg["c"].is_number_unsigned()) return;
    const std::string kind = msg.value("k", "");
    const ConnId c = msg["c"].get<ConnId>();
    const Millis now = clock();
    if (kind == "sign_out") return hall_.sign_out_here(msg.value("n", ""), msg.value("o", ""), msg.value("h", ""));
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
            let_go(id, now);  // moved or gone: what it asked before is still answered
        }
        return;
    }
    // send, close: for a client of this node, only from the node serving it.
    auto f = fronts_.find(c);
    if (f == fronts_.end()) return;
    // Answers the node it just left sent before it saw the connection go are delivered too.
    if (kind == "send" && f->second.previous && *f->second.previous == *from && clock() < f->second.previous_until &&
        !(f->second.target && *f->second.target == *from))
        return deliver(c, f->second, msg.value("t", ""));
    if (!f->second.target || !(*f->second.target == *from)) return;
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
    Front& f = fronts_[conn];
    f.address = address;
    f.rate = MessageRate(hall_.rate_limit().burst, now);
    hall_.open(conn, address, now);
}

void ClusterNode::message(ConnId conn, std::string_view text, Millis now) {
    now_ = std::max(now_, now);
    auto it = fronts_.find(conn);
    if (it == fronts_.end()) return hall_.message(conn, text, now);
    Front& f = it->second;
    // The hall's rate limit, here too: a flood of a relayed connection stops at its front. (A
    // connection served here is refused by the hall alike; counted here too, for after a move.)
    if (const RateVerdict v = f.rate.admit(now, hall_.rate_limit()); v != RateVerdict::pass && f.target) {
        if (v == RateVerdict::close) return sockets_.close(conn, 1008, "rate limit");
        return sockets_.send(conn, rate_limited_reply(text));
    }
    if (f.resolving || (f.target && f.orphan)) {
        // Its join waits for the table's owner, or its node is gone: everything after waits.
        if (f.held.size() < config_.max_held_frames) f.held.emplace_back(text);
        else ++dropped_;
        return;
    }
    if (mentions(text, "\"hello\"")) f.watch_welcome = true;  // its welcome names the guest
    if (mentions(text, "\"join\"") && route(conn, f, text)) return;
    forward(conn, f, text, now);
}

void ClusterNode::forward(ConnId conn, Front& f, std::string_view text, Millis now) {
    if (mentions(text, "\"leave\"") || mentions(text, "\"join\"")) note_watching(f, text);
    if (!f.target) return hall_.message(conn, text, now);
    publish(*f.target, {{"k", "frame"}, {"c", conn}, {"t", std::string(text)}});
}

bool ClusterNode::route(ConnId conn, Front& f, std::string_view text) {
    const json msg = json::parse(text, nullptr, false);
    if (!msg.is_object() || !msg.contains("type") || !msg["type"].is_string() || f.token.empty()) return false;
    const std::string& type = msg["type"].get_ref<const std::string&>();
    // Only a guest at no table moves (else the node serving it answers, e.g. already_seated).
    // Served here but not signed in again yet (just moved here: its hello is in flight), the
    // directory says where it sits, as for a relayed one.
    const auto where = f.target ? std::nullopt : hall_.where(conn);
    if (where ? !where->first.empty() : seated_.count(f.name) > 0) return false;
    const NodeId current = serving(conn);
    std::optional<NodeId> to;
    if (type == "join" && msg.contains("table") && msg["table"].is_string()) {
        // A join of a table another node runs: that node serves this connection from now on.
        const std::string table = msg["table"].get<std::string>();
        if (!f.target && hall_.table(table)) return false;
        auto owner = table_node_.find(table);
        if (owner == table_node_.end()) {
            resolve(conn, table, std::string(text));  // newer than the directory
            return true;
        }
        to = live(owner->second);
    }
    if (!to || *to == current) return false;
    hand_off(conn, *to);
    forward(conn, fronts_.at(conn), text, clock());
    return true;
}

void ClusterNode::closed(ConnId conn, Millis now) {
    if (draining_.erase(conn)) hall_.closed(conn, now);  // its answers have nobody to go to now
    auto it = fronts_.find(conn);
    if (it != fronts_.end() && it->second.target) publish(*it->second.target, {{"k", "closed"}, {"c", conn}});
    else hall_.closed(conn, now);
    if (it != fronts_.end()) fronts_.erase(it);
}

Millis ClusterNode::clock() { return now_ = std::max(now_, unix_ms()); }

void ClusterNode::tick(Millis now) {
    now_ = std::max(now_, now);
    if (!draining_.empty()) drain(now);
    // The subscriber connected again (Redis restarted, or the link broke): resync the relays.
    if (const std::uint64_t sessions = link_->sessions(); sessions != subscriber_sessions_) {
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
    if (f->second.target) {  // served by another node now: only what it asked before the move
        if (draining_.count(conn)) sockets_.send(conn, std::move(text));
        return;
    }
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
    if (f.moving) return;  // it signs in on another node now: that node's welcome comes first
    // An answer to the relay's own request (id kRelayId) never reaches the client, whatever
    // `swallow` says: a second move within the window of the first reset that count while the
    // first one's answer was still on its way (a stray "~relay" answer under stress, issue 25).
    const bool maybe_relay = mentions(text, kRelayId);
    if ((f.watch_welcome || f.swallow > 0 || maybe_relay) && (maybe_relay || mentions(text, "\"welcome\""))) {
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
        // Signed in here while seated at a table another node runs: that node serves it, and
        // its welcome (with the seat) is the one the client gets.
        if (msg.is_object() && msg.value("type", "") == "welcome" && !f.name.empty()) {
            std::optional<NodeId> to;
            if (auto s = seated_.find(f.name); s != seated_.end()) {
                // Its table may be this node's own while another node serves the connection: then
                // it moves here.
                if (hall_.table(s->second)) to = me_;
                else if (auto t = table_node_.find(s->second); t != table_node_.end()) to = live(t->second);
            }
            if (to && !(*to == serving(conn))) {
                // Not from inside the hall's send (the hall is still signing the connection in):
                // on the loop's next turn. What the node serving it sends meanwhile is dropped.
                f.moving = true;
                auto alive = std::weak_ptr<bool>(alive_);
                sockets_.post([this, alive, conn, to = *to, id = msg.value("id", json())] {
                    if (alive.expired() || !fronts_.count(conn)) return;
                    hand_off(conn, to, id);
                });
                return;
            }
        }
        sockets_.send(conn, std::move(text));
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
            // directory this node read last). Else the node serving it answers (no_such_table).
            if (owner && !(*owner == serving(conn))) hand_off(conn, *owner);
            forward(conn, fronts_.at(conn), text, clock());
            for (auto& h : held) message(conn, h, clock());
        });
    };
    const bool queued = work_->submit([this, table, done] {
        done(link_->owner(table));
    });
    if (!queued) done(std::nullopt);
}

std::string ClusterNode::relay_hello(const std::string& token, const json& id) {
    json hello{{"type", "hello"}, {"token", token}};
    if (!id.is_null()) hello["id"] = id;
    return hello.dump();
}

void ClusterNode::hand_off(ConnId conn, const NodeId& to, const std::optional<json>& answer) {
    auto it = fronts_.find(conn);
    if (it == fronts_.end()) return;
    Front& f = it->second;
    const Millis now = clock();
    ++moves_;
    f.moving = false;
    f.wanted.reset();  // what the directory said before the move counts no more
    f.wanted_times = 0;
    // A live node it leaves may still answer what it sent there just before (for a moment); a
    // node gone or paused is not heard from again (it may wake with a stale table).
    const bool left_live = f.target && !f.orphan && live(f.target->name) == f.target;
    f.previous = left_live ? f.target : std::nullopt;
    f.previous_until = now + kPreviousWindowMs;
    if (f.target) publish(*f.target, {{"k", "closed"}, {"c", conn}});
    else let_go(conn, now);
    f.orphan.reset();
    // Signed in there with its token; a spectator watches its table there again.
    std::vector<std::string> relayed;
    if (!f.token.empty()) relayed.push_back(relay_hello(f.token, answer ? *answer : json(kRelayId)));
    if (!f.token.empty() && !f.watching.empty() && !seated_.count(f.name))
        relayed.push_back(json{{"type", "join"}, {"table", f.watching}, {"id", kRelayId}}.dump());
    f.swallow = static_cast<int>(relayed.size()) - (answer && !f.token.empty() ? 1 : 0);
    if (to == me_) {
        f.target.reset();
        // Back before its answers here came (a bounce within the window): those are lost, as a
        // connection opens here once.
        if (draining_.erase(conn)) hall_.closed(conn, now);
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

void ClusterNode::let_go(ConnId conn, Millis now) {
    if (hall_.answering(conn)) {
        draining_[conn] = now + kPreviousWindowMs;
        return;
    }
    remotes_.erase(conn);
    hall_.closed(conn, now);
}

void ClusterNode::drain(Millis now) {
    std::vector<ConnId> done;
    for (const auto& [conn, until] : draining_)
        if (now >= until || !hall_.answering(conn)) done.push_back(conn);
    for (ConnId conn : done) {
        draining_.erase(conn);
        remotes_.erase(conn);
        hall_.closed(conn, now);
    }
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
        // Every node's summaries are read here, off the loop: who runs which table, who sits
        // where, and the other nodes' public tables for the lobby.
        std::unordered_map<std::string, ReadSummary> read;
        read.reserve(view.lobby.size());
        for (auto& e : view.lobby) {
            d.table_node[e.table] = e.node;
            const auto last = read_.find(e.table);
            const ReadSummary& r = read[e.table] = read_summary(std::move(e.summary), last == read_.end() ? nullptr : &last->second);
            for (const auto& name : r.players) d.seated[name] = e.table;
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
    if (summary.contains("seats") && summary["seats"].is_array())
        for (const auto& s : summary["seats"])
            if (s.is_object() && !s.value("bot", false)) r.players.push_back(s.value("name", ""));
    r.is_public = !summary.value("private", true);
    r.summary = std::make_shared<const json>(std::move(summary));
    return r;
}

void ClusterNode::applied(Directory d, Millis now) {
    refreshing_ = false;
    ++refreshes_;
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
    for (const auto& [id, players] : hall_.table_players()) {  // this node's own, fresher than the directory
        table_node_[id] = me_.name;
        for (const auto& name : players) seated_[name] = id;
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
        if (!draining_.erase(id)) remote_ids_.erase({r.front.text(), r.conn});  // (a draining one has no key)
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
        // The directory may be a refresh behind (a table just left or joined): a move needs it
        // to say so twice in a row (since the connection's last move).
        f.wanted_times = want && f.wanted == want ? f.wanted_times + 1 : 1;
        f.wanted = want;
        if (want && !(*want == current) && f.wanted_times >= 2) {
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
