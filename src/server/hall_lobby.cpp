// The hall, the lobby: the dispatcher (a visit of the typed request read at the edge,
// client_request.hpp), list and its pushed pages, and the hand-over of create and the table
// requests to the table host (table_host.hpp) (the hall's other roles: hall.cpp,
// hall_admission.cpp, hall_http.cpp, hall_metrics.cpp; include/tarneeb/server/hall.hpp says
// what the hall is).
#include <algorithm>
#include <chrono>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>

#include "tarneeb/bots/loop.hpp"
#include "tarneeb/server/hall.hpp"
#include "tarneeb/support/names.hpp"
#include "tarneeb/support/overloaded.hpp"

namespace tarneeb::server {

using nlohmann::json;

void Hall::dispatch(ConnId conn, Conn& c, const ClientRequest& r) {
    // The client messages (docs/protocol.md), each with its handler; all but ping and hello
    // (and an unknown type, refused wherever the guest is) need the guest to be signed in.
    if (r.signed_in) {
        if (c.name.empty()) return error(conn, r.id, to_string(ProtocolError::not_signed_in));
        guests_[c.name];  // the guest's entry (every signed-in guest has one)
    }
    const json& id = r.id;
    std::visit(Overloaded{
                   [&](const BadRequest& bad) { error(conn, id, bad.code, bad.message); },
                   [&](const PingRequest&) { reply(conn, id, pong_json()); },
                   [&](const HelloRequest& h) { hello(conn, c, h, id); },
                   [&](const ListRequest& l) { list_tables(conn, id, l); },
                   [&](const CreateRequest& cr) { on_create(conn, c, cr, id); },
                   [&](const QuickPlayRequest& q) { on_quick_play(conn, c, q, id); },  // hall_quick_play.cpp
                   [&](const TableRequest& t) { on_table_request(conn, c, t, r); },
                   // Accounts (hall_accounts.cpp).
                   [&](const RegisterRequest& reg) { on_register(conn, c, reg, id); },
                   [&](const ChangePasswordRequest& cp) { on_change_password(conn, c, cp, id); },
                   [&](const SignOutRequest&) { on_sign_out(conn, c, id); },
                   [&](const SignOutEverywhereRequest&) { on_sign_out_everywhere(conn, c, id); },
                   // Tournaments (hall_tournament.cpp).
                   [&](const TournamentCreateRequest& tc) { on_tournament_create(conn, c, tc, id); },
                   [&](const TournamentRequest& tr) { on_tournament(conn, c, tr, r); },
               },
               r.body);
}

void Hall::on_table_request(ConnId conn, Conn& c, const TableRequest& t, const ClientRequest& r) {
    // A hint takes a while and changes nothing, chat is answered at once: neither holds the guest.
    const bool holding = !std::holds_alternative<HintRequest>(t) && !std::holds_alternative<ChatRequest>(t);
    // A join with a code counts as a wrong code of its address until answered otherwise.
    const auto* join = std::get_if<JoinRequest>(&t);
    std::string coded;
    if (join && join->code) {
        if (const Millis wait = code_attempts_.wait_ms(c.address, now_); wait > 0)
            return error(conn, r.id, kTooManyAttempts,
                         "too many wrong join codes; try again in " + std::to_string((wait + 999) / 1000) + " s");
        code_attempts_.failed(c.address, now_);
        coded = c.address;
    }
    if (holding) hold(conn);
    // A chat line carries its connection's address (the chat limit per address, chat.hpp).
    const ChatRequest* chat = std::get_if<ChatRequest>(&t);
    TableRequest addressed;
    if (chat) {
        ChatRequest line = *chat;
        line.address = c.address;
        addressed = std::move(line);
    }
    tables_->request(c.name, chat ? addressed : t, [this, conn, id = r.id, holding, coded](json body) {
        if (holding) release(conn);
        if (!coded.empty() && body.value("code", "") != to_string(ProtocolError::bad_code)) code_attempts_.forgive(coded);
        reply(conn, id, std::move(body));
    });
}

void Hall::on_create(ConnId conn, Conn& c, const CreateRequest& cr, const json& id) {
    hold(conn);
    host_->create(c.name, c.address, cr, [this, conn, id](json body) {
        release(conn);
        reply(conn, id, std::move(body));
    });
}

void Hall::list_tables(ConnId conn, const json& id, const ListRequest& l) {
    // One page of public tables in id order after `cursor` (docs/protocol.md "list").
    const std::int64_t max = static_cast<std::int64_t>(std::max<std::size_t>(1, config_.list_page_max));
    const std::int64_t limit = std::min(max, l.limit.value_or(max));
    const std::optional<std::string>& from = l.cursor;
    json page = lobby_page(from, limit);
    // Every list replaces the connection's subscription: with `watch`, this page is pushed again
    // whenever it changes (push_lobby); without it, nothing more is pushed.
    Conn& c = conns_.at(conn);
    c.lobby.reset();
    if (l.watch) {
        c.lobby.emplace(from, limit);
        c.lobby_sent = std::hash<std::string>{}(page.dump());
    }
    reply(conn, id, std::move(page));
}

json Hall::lobby_page(const std::optional<std::string>& cursor, std::int64_t limit) const {
    // This hall's public tables and the other nodes' (cluster mode), merged in id order.
    const auto& tables = host_->tables();
    auto it = cursor ? tables.upper_bound(*cursor) : tables.begin();
    auto rt = cursor ? remote_lobby_.upper_bound(*cursor) : remote_lobby_.begin();
    json list = json::array();
    json next = nullptr;
    while (it != tables.end() || rt != remote_lobby_.end()) {
        const bool local = rt == remote_lobby_.end() || (it != tables.end() && it->first < rt->first);
        if (local && it->second.table->settings().is_private) {
            ++it;
            continue;
        }
        if (static_cast<std::int64_t>(list.size()) == limit) {
            next = list.back()["table"];
            break;
        }
        if (local) {
            list.push_back(summary_json(*it->second.table, it->second.spectators));
            ++it;
        } else {
            list.push_back(*rt->second);
            ++rt;
        }
    }
    return tables_json(std::move(list), std::move(next));
}

void Hall::push_lobby(Millis now) {
    if (!lobby_changed_ || now - lobby_pushed_ < config_.lobby_push_ms) return;
    lobby_changed_ = false;
    lobby_pushed_ = now;
    // Watchers of the same page share its text (most watch the first page).
    std::map<std::pair<std::optional<std::string>, std::int64_t>, std::pair<std::string, std::size_t>> pages;
    for (auto& [conn, c] : conns_) {
        if (!c.lobby) continue;
        auto [at, fresh] = pages.try_emplace(*c.lobby);
        if (fresh) {
            at->second.first = lobby_page(c.lobby->first, c.lobby->second).dump();
            at->second.second = std::hash<std::string>{}(at->second.first);
        }
        if (at->second.second == c.lobby_sent) continue;  // its page did not change
        c.lobby_sent = at->second.second;
        out_.send(conn, at->second.first);
    }
}

}  // namespace tarneeb::server
