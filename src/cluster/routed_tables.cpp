// The tables of a cluster as one node's front sees them (include/tarneeb/cluster/routed_tables.hpp).
#include "tarneeb/cluster/routed_tables.hpp"

#include <algorithm>
#include <utility>
#include <variant>

#include "tarneeb/cluster/node_requests.hpp"

namespace tarneeb::server {

using nlohmann::json;

namespace {

json unreachable() {
    return error_json("storage_unavailable", "the table's server does not answer now; try again");
}

}  // namespace

RoutedTables::RoutedTables(Hall& hall, Node node) : hall_(hall), node_(std::move(node)) {}

bool RoutedTables::publish(const NodeId& to, json msg) { return node_.publish(to, std::move(msg)); }

std::optional<NodeId> RoutedTables::live(const std::string& name) const {
    auto it = dir_.nodes.find(name);
    if (it == dir_.nodes.end()) return std::nullopt;
    return it->second;
}

bool RoutedTables::placing(const std::string& guest) const {
    return pending_of_.count(guest) || std::any_of(locating_.begin(), locating_.end(), [&](const Locating& l) { return l.guest == guest; });
}

std::optional<NodeId> RoutedTables::runs(const std::string& table) const {
    if (hall_.host().table(table)) return node_.self;
    // (A directory read older than this node's host may still list a table the host let go.)
    if (auto t = dir_.table_node.find(table); t != dir_.table_node.end() && t->second != node_.self.name) return live(t->second);
    return std::nullopt;
}

// ---- the front's side -----------------------------------------------------------------------

void RoutedTables::request(const std::string& guest, const TableRequest& r, Answer done) {
    TableHost& host = hall_.host();
    if (host.where(guest)) return host.request(guest, r, std::move(done));  // at this node's table
    auto route = routes_.find(guest);
    const auto* join = std::get_if<JoinRequest>(&r);
    if (route != routes_.end() && join && join->table != route->second.table) {
        // To another table: it leaves the one it is at first (as a host does for its own
        // tables), then the join goes where its table runs.
        const NodeId at = route->second.node;
        return send_request(at, guest, TableRequest{LeaveRequest{}}, [this, guest, j = *join, r, done](json body) mutable {
            const std::string type = body.value("type", "");
            if (type != "ok" && body.value("code", "") != "not_at_table") return done(std::move(body));
            routes_.erase(guest);
            route_join(guest, j, r, std::move(done));
        });
    }
    // (To a node that died, the next directory read answers it: pending requests to a node gone.)
    if (route != routes_.end()) return send_request(route->second.node, guest, r, std::move(done));
    if (join) return route_join(guest, *join, r, std::move(done));
    host.request(guest, r, std::move(done));  // at no table: refused here as anywhere
}

void RoutedTables::route_join(const std::string& guest, const JoinRequest& j, const TableRequest& r, Answer done) {
    if (auto n = runs(j.table)) return send_request(*n, guest, r, std::move(done));  // here, or where it runs
    // Newer than the directory (created a moment ago on another node): its lease says where.
    node_.owner(j.table, [this, guest, r, done = std::move(done)](std::optional<NodeId> owner) mutable {
        if (owner && !(*owner == node_.self)) return send_request(*owner, guest, r, std::move(done));
        hall_.host().request(guest, r, std::move(done));  // no_such_table, or this node's own by now
    });
}

void RoutedTables::send_request(const NodeId& node, const std::string& guest, const TableRequest& r, Answer done, bool announce) {
    if (node == node_.self) return hall_.host().request(guest, r, std::move(done));
    const std::uint64_t n = ++next_;
    if (!publish(node, {{"k", "req"}, {"g", guest}, {"n", n}, {"r", node_request_json(r)}})) return done(unreachable());
    pending_.emplace(n, Pending{node, guest, node_.clock() + node_.request_timeout, std::move(done), nullptr, 0, announce, {}});
    pending_of_.emplace(guest, n);
}

void RoutedTables::locate(const std::string& guest, Located done, bool returning) {
    find_place(guest, node_.clock() + node_.orphan_wait, std::move(done), /*recorded=*/!returning);
}

void RoutedTables::find_place(const std::string& guest, Millis until, Located done, bool recorded) {
    if (auto p = hall_.host().where(guest)) {
        drop_route(guest);  // seated here (a table taken over by this node): served here
        recorded_.erase(guest);
        return done(p);
    }
    const auto rec = recorded_.find(guest);
    if (node_.clock() >= until) {
        // A table its record named that ran nowhere all this time: closed by a node that died
        // before it cleared the record (else it would run again by now; a node that takes it
        // over later writes the record again). The record goes.
        if (rec != recorded_.end() && !runs(rec->second) && node_.forget_seat) node_.forget_seat(guest, rec->second);
        return done(std::nullopt);
    }
    std::optional<NodeId> at;
    std::string table;
    if (auto route = routes_.find(guest); route != routes_.end()) {
        at = route->second.node;
        table = route->second.table;
    } else if (rec != recorded_.end()) {
        table = rec->second;
        at = runs(table);
        if (at && *at == node_.self) {
            // Its table runs here and does not seat it: the record is older than its leaving.
            recorded_.erase(rec);
            return done(std::nullopt);
        }
    }
    if (at) {
        if (ask_place(*at, guest, table, until, done)) return;
    } else if (rec != recorded_.end()) {
        return locating_.push_back(Locating{guest, until, std::move(done), recorded});  // the next directory read tries again
    } else if (!recorded && node_.seat_of) {
        // Where its seat record says it sits (the cluster's one guest→table record).
        return node_.seat_of(guest, [this, guest, until, done = std::move(done)](std::optional<std::string> named, bool unread) mutable {
            // Redis did not answer (restarting, say): not "no seat"; the next directory read
            // (Redis answering again) reads it again.
            if (unread) return locating_.push_back(Locating{guest, until, std::move(done), false});
            found_record(guest, until, std::move(named), std::move(done));
        });
    }
    done(std::nullopt);
}

void RoutedTables::found_record(const std::string& guest, Millis until, std::optional<std::string> table, Located done) {
    if (!table) return find_place(guest, until, std::move(done), /*recorded=*/true);  // a route may have come meanwhile
    recorded_.insert_or_assign(guest, *table);
    if (runs(*table)) return find_place(guest, until, std::move(done), /*recorded=*/true);
    // Not in the directory: newer than its last read, or being taken over. Its lease says.
    node_.owner(*table, [this, guest, until, table = *table, done = std::move(done)](std::optional<NodeId> owner) mutable {
        if (owner && !(*owner == node_.self) && ask_place(*owner, guest, table, until, done)) return;
        // Run nowhere: its node died or let it go, and no node has taken it over yet. Wait for a
        // directory read that shows where it runs (or, run here, the host knows).
        find_place(guest, until, std::move(done), /*recorded=*/true);
    });
}

bool RoutedTables::ask_place(const NodeId& at, const std::string& guest, const std::string& table, Millis until, Located& done) {
    const std::uint64_t n = ++next_;
    if (!publish(at, {{"k", "place"}, {"g", guest}, {"n", n}, {"t", table}})) return false;
    pending_.emplace(n, Pending{at, guest, std::min(until, node_.clock() + node_.request_timeout), nullptr, std::move(done), until,
                                false, table});
    pending_of_.emplace(guest, n);
    return true;
}

void RoutedTables::connected(const std::string& guest) {
    if (auto route = routes_.find(guest); route != routes_.end() && !hall_.host().where(guest)) {
        publish(route->second.node, {{"k", "conn"}, {"g", guest}});
        return;
    }
    hall_.host().connected(guest);
}

void RoutedTables::disconnected(const std::string& guest) {
    drop_route(guest);
    recorded_.erase(guest);
    // Still served by another front (a second device on another node): it keeps its presence.
    if (!fronts_.count(guest)) hall_.host().disconnected(guest);
}

void RoutedTables::drop_route(const std::string& guest) {
    auto route = routes_.find(guest);
    if (route == routes_.end()) return;
    publish(route->second.node, {{"k", "disc"}, {"g", guest}});
    routes_.erase(route);
}

void RoutedTables::released(const std::string& table) {
    // Host side: other fronts' spectators of a table that left this node (it runs nowhere, or
    // will run again, here or elsewhere, with no spectator): their fronts find it again.
    for (auto it = watching_.begin(); it != watching_.end();) {
        if (it->second != table) {
            ++it;
            continue;
        }
        if (auto f = fronts_.find(it->first); f != fronts_.end())
            for (const Front& front : f->second) publish(front.node, {{"k", "dropped"}, {"g", it->first}, {"t", table}});
        it = watching_.erase(it);
    }
}

void RoutedTables::answered(const NodeId& from, const json& msg) {
    if (!msg.contains("n") || !msg["n"].is_number_unsigned()) return;
    auto it = pending_.find(msg["n"].get<std::uint64_t>());
    if (it == pending_.end() || !(it->second.node == from)) return;  // timed out, or not from whom it asked
    Pending p = take(it);
    // Where the guest is after it: the answer is the freshest word on its route.
    const auto place = parse_node_place(msg.value("p", json()));
    if (place && hall_.present(p.guest)) {
        routes_[p.guest] = Route{place->table, from, place->seat.has_value(), node_.clock(), std::nullopt, false};
    } else if (auto r = routes_.find(p.guest); r != routes_.end() && r->second.node == from) {
        // A spectator's watch sent again that found no table there (being taken over): tried
        // again at the next directory read. Any other request: the guest is at no table there.
        if (p.announce) r->second.lost = true;
        else routes_.erase(r);
    }
    if (p.located) {
        const bool runs_there = msg.value("r", false);
        if (!place && !p.table.empty() && !runs_there && node_.clock() < p.until) {
            // That node no longer runs the table it was asked about (it let it go, or lost it):
            // the table is being taken over; the next directory read says where it runs.
            recorded_.try_emplace(p.guest, p.table);
            return locating_.push_back(Locating{p.guest, p.until, std::move(p.located), true});
        }
        if (place || runs_there) recorded_.erase(p.guest);  // found, or its table runs there without it
        return p.located(place);
    }
    p.answer(msg.contains("b") && msg["b"].is_object() ? msg["b"] : unreachable());
}

RoutedTables::Pending RoutedTables::take(std::map<std::uint64_t, Pending>::iterator& it) {
    Pending p = std::move(it->second);
    for (auto [a, b] = pending_of_.equal_range(p.guest); a != b; ++a)
        if (a->second == it->first) {
            pending_of_.erase(a);
            break;
        }
    it = pending_.erase(it);
    return p;
}

std::size_t RoutedTables::give_up_if(const std::function<bool(const Pending&)>& hopeless) {
    std::vector<Pending> given;
    for (auto it = pending_.begin(); it != pending_.end();) {
        if (hopeless(it->second)) given.push_back(take(it));
        else ++it;
    }
    // Answered after the walk: an answer lets the hall send the guest's next request. A locate
    // looks again (its table may be being taken over), until its time is up.
    for (Pending& p : given) {
        if (p.located) find_place(p.guest, p.until, std::move(p.located));
        else p.answer(unreachable());
    }
    return given.size();
}

bool RoutedTables::accepts_send(const std::string& guest, const NodeId& from) const {
    if (auto r = routes_.find(guest); r != routes_.end() && r->second.node == from) return true;
    for (auto [a, b] = pending_of_.equal_range(guest); a != b; ++a)
        if (auto p = pending_.find(a->second); p != pending_.end() && p->second.node == from) return true;
    return false;
}

// ---- the table host's side --------------------------------------------------------------------

RoutedTables::Front& RoutedTables::front_of(const std::string& guest, const NodeId& from) {
    auto& fronts = fronts_[guest];
    for (Front& f : fronts)
        if (f.node == from) return f;
    for (Front& f : fronts)
        if (f.node.name == from.name) {  // the same node restarted: its old life is gone
            f = Front{from, {}, std::nullopt};
            return f;
        }
    fronts.push_back(Front{from, {}, std::nullopt});
    return fronts.back();
}

void RoutedTables::front_gone(const std::string& guest, const NodeId& from) {
    auto it = fronts_.find(guest);
    if (it == fronts_.end()) return;
    std::erase_if(it->second, [&](const Front& f) { return f.node == from; });
    if (!it->second.empty()) return;
    fronts_.erase(it);
    if (!hall_.present(guest)) hall_.host().disconnected(guest);
}

void RoutedTables::deliver(const std::string& guest, std::optional<Seat> seat, bool creator, const TableMessage& message,
                           const std::string& history_key) {
    auto it = fronts_.find(guest);
    if (it == fronts_.end()) return;
    std::string with, without;  // built at most once each
    for (Front& f : it->second) {
        const bool has = f.history_sent == history_key;
        std::string& text = has ? without : with;
        if (text.empty()) text = message.to(seat, creator, !has);
        f.history_sent = history_key;
        publish(f.node, {{"k", "send"}, {"g", guest}, {"t", text}});
    }
}

void RoutedTables::send(const std::string& guest, const std::string& text) {
    if (auto it = fronts_.find(guest); it != fronts_.end())
        for (const Front& f : it->second) publish(f.node, {{"k", "send"}, {"g", guest}, {"t", text}});
}

// ---- messages from other nodes -------------------------------------------------------------

void RoutedTables::received(const NodeId& from, const std::string& kind, const json& msg) {
    if (kind == "ans") return answered(from, msg);
    if (kind == "reset") {  // the node lost this node's messages: every route there opens again
        for (const auto& [guest, route] : routes_)
            if (route.node == from) announce(guest, route);
        return;
    }
    const std::string guest = msg.value("g", "");
    if (guest.empty()) return;
    if (kind == "send") {
        if (accepts_send(guest, from)) hall_.to_guest(guest, msg.value("t", ""));
        return;
    }
    if (kind == "seated") {
        // The node running `t` seats the guest there (its seat record was lost): a guest here at
        // no table, and not being placed, is routed to it.
        const std::string table = msg.value("t", "");
        if (table.empty() || !hall_.present(guest) || routes_.count(guest) || hall_.host().where(guest) || placing(guest)) return;
        const Route route{table, from, true, node_.clock(), std::nullopt, false};
        routes_[guest] = route;
        recorded_.erase(guest);
        announce(guest, route);
        return;
    }
    if (kind == "dropped") {
        if (auto r = routes_.find(guest); r != routes_.end() && r->second.node == from && r->second.table == msg.value("t", ""))
            r->second.lost = true;
        return;
    }
    TableHost& host = hall_.host();
    if (kind == "conn") {
        front_of(guest, from).history_sent.clear();  // its next table message carries the history
        host.connected(guest);
    } else if (kind == "disc") {
        front_gone(guest, from);
    } else if (kind == "place") {
        json answer{{"k", "ans"}, {"n", msg.value("n", json())}, {"p", node_place_json(host.where(guest))}};
        if (auto t = msg.find("t"); t != msg.end() && t->is_string()) answer["r"] = host.table(t->get<std::string>()) != nullptr;
        publish(from, std::move(answer));
    } else if (kind == "req") {
        const json n = msg.value("n", json());
        const auto r = parse_node_request(msg.value("r", json()));
        if (!r) return void(publish(from, {{"k", "ans"}, {"n", n}, {"b", error_json("bad_message")}, {"p", nullptr}}));
        const bool first = !fronts_.count(guest) || std::none_of(fronts_[guest].begin(), fronts_[guest].end(),
                                                                 [&](const Front& f) { return f.node == from; });
        front_of(guest, from);
        if (first) host.connected(guest);  // e.g. its first request after its table was taken over here
        host.request(guest, *r, [this, from, guest, n](json body) {
            const auto place = hall_.host().where(guest);
            publish(from, {{"k", "ans"}, {"n", n}, {"b", std::move(body)}, {"p", node_place_json(place)}});
            if (place && !place->seat) watching_[guest] = place->table;
            else watching_.erase(guest);
            if (!place) front_gone(guest, from);  // at no table here: its front has no route here now
        });
    }
}

// ---- the directory, resync, timeouts ----------------------------------------------------------

void RoutedTables::directory(Directory d) {
    const Millis now = node_.clock();
    dir_ = std::move(d);
    // Requests to nodes that left: no answer will come.
    give_up_if([&](const Pending& p) { return !(live(p.node.name) == p.node); });
    // Routes follow their tables (taken over by another node, or by this one).
    std::vector<std::string> gone;
    std::vector<std::pair<std::string, NodeId>> moved;  // guest, the node running its table now
    for (auto& [guest, route] : routes_) {
        if (dir_.read_at < route.settled + node_.settle) continue;  // the directory may not know yet
        const std::optional<NodeId> at = runs(route.table);
        if (!at) {
            if (!route.orphan) route.orphan = now;
            else if (now - *route.orphan >= node_.orphan_wait) gone.push_back(guest);
            continue;
        }
        route.orphan.reset();
        if (*at == route.node && !route.lost) continue;
        moved.emplace_back(guest, *at);
    }
    for (const auto& guest : gone) {
        if (node_.warn) node_.warn("event=route_dropped guest=" + guest + " table=" + routes_.at(guest).table + " reason=no_live_node");
        drop_route(guest);
    }
    for (const auto& [guest, at] : moved) {
        Route route = routes_.at(guest);
        if (!(route.node == at)) drop_route(guest);  // the node it leaves forgets it
        route.node = at;
        route.lost = false;
        if (!(at == node_.self)) routes_[guest] = route;  // else taken over by this node: served here
        announce(guest, route);  // its new node sends it the table
    }
    // Guests here whose record seats them at a table that ran nowhere when they signed in (it
    // was being taken over): routed to it once it runs again. (One at a table already, still
    // being located, or with a request on its way, is placed by that.)
    for (auto it = recorded_.begin(); it != recorded_.end();) {
        const std::string& guest = it->first;
        if (!hall_.present(guest) || routes_.count(guest) || hall_.host().where(guest)) {
            it = recorded_.erase(it);
            continue;
        }
        const auto at = runs(it->second);
        if (!at || *at == node_.self || placing(guest)) {
            ++it;  // (run here: its host placed it when it took the table over, if it sits there)
            continue;
        }
        const Route route{it->second, *at, true, 0, std::nullopt, false};
        routes_[guest] = route;
        announce(guest, route);
        it = recorded_.erase(it);
    }
    // Fronts that left (restarted, or missing from the directory for orphan_wait: not at once,
    // as after a Redis restart the directory fills again over a refresh or two): their guests
    // here count as disconnected.
    std::vector<std::pair<std::string, NodeId>> left;
    for (auto& [guest, fronts] : fronts_)
        for (Front& f : fronts) {
            const auto n = live(f.node.name);
            if (n && *n == f.node) f.missing.reset();
            else if (n || (f.missing && now - *f.missing >= node_.orphan_wait)) left.emplace_back(guest, f.node);
            else if (!f.missing) f.missing = now;
        }
    for (const auto& [guest, node] : left) {
        if (node_.warn) node_.warn("event=front_left guest=" + guest + " node=" + node.text());
        front_gone(guest, node);
    }
    look_again();
}

void RoutedTables::look_again() {
    for (Locating& l : std::exchange(locating_, {})) find_place(l.guest, l.until, std::move(l.done), l.recorded);
}

void RoutedTables::announce(const std::string& guest, const Route& route) {
    if (!route.seated) {  // a spectator watches again (a host keeps no spectator it has not seen)
        JoinRequest watch{route.table, std::nullopt, false, std::nullopt};
        return send_request(route.node, guest, TableRequest{std::move(watch)}, [](const json&) {}, /*announce=*/true);
    }
    if (route.node == node_.self) hall_.host().connected(guest);
    else publish(route.node, {{"k", "conn"}, {"g", guest}});
}

void RoutedTables::offer_seats() {
    for (const auto& [table, players] : hall_.host().players())
        for (const auto& guest : players) {
            if (hall_.present(guest) || fronts_.count(guest)) continue;  // connected: served already
            for (const auto& [name, node] : dir_.nodes)
                if (!(node == node_.self)) publish(node, {{"k", "seated"}, {"g", guest}, {"t", table}});
        }
}

void RoutedTables::resync() {
    std::vector<NodeId> told;
    for (const auto& [guest, fronts] : fronts_)
        for (const Front& f : fronts)
            if (std::find(told.begin(), told.end(), f.node) == told.end()) {
                told.push_back(f.node);
                publish(f.node, {{"k", "reset"}});
            }
    for (const auto& [guest, route] : routes_) announce(guest, route);
}

void RoutedTables::tick(Millis now) {
    timeouts_ += give_up_if([&](const Pending& p) { return now >= p.deadline; });
    if (std::any_of(locating_.begin(), locating_.end(), [&](const Locating& l) { return now >= l.until; })) look_again();
}

json RoutedTables::metrics() const {
    std::size_t remote = 0;
    for (const auto& [guest, fronts] : fronts_) remote += fronts.size();
    return {{"routes", routes_.size()}, {"remote_guests", remote}, {"requests_waiting", pending_.size()},
            {"locates_waiting", locating_.size()}, {"recorded_waiting", recorded_.size()}, {"request_timeouts", timeouts_}};
}

}  // namespace tarneeb::server
