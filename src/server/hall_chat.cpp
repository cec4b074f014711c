// The hall, table chat (issue 15; docs/protocol.md "Chat"; the rules of a line and of the two
// channels: include/tarneeb/server/chat.hpp): the `chat` handler, the recent lines a guest gets
// when it arrives at a table, and the match's lines in its record. Chat needs no database
// write and no table change, so it is handled at once on the hall's thread (the hall's other
// roles: hall.cpp, hall_lobby.cpp...; include/tarneeb/server/hall.hpp says what the hall is).
#include <chrono>

#include "tarneeb/server/hall.hpp"

namespace tarneeb::server {

using nlohmann::json;

namespace {
std::int64_t unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}
}  // namespace

void Hall::on_chat(ConnId conn, Conn& c, const ChatRequest& request, const json& id) {
    const std::string name = c.name;
    Guest& g = guests_[name];
    TableEntry* t = g.table.empty() ? nullptr : find_table(g.table);
    if (!t) return error(conn, id, to_string(ProtocolError::not_at_table));
    if (request.bad) return error(conn, id, request.bad->code, request.bad->message);
    ChatLine line;
    line.text = request.text;
    line.phrase = request.phrase;
    // Counted only once the line is well formed: a refused line costs nothing.
    if (!g.chat_rate.allow(now_))
        return error(conn, id, "chat_rate_limited", "at most 5 chat lines in 10 seconds");
    line.from = name;
    line.seat = g.seat;
    line.channel = g.seat ? ChatChannel::players : ChatChannel::spectators;
    line.at_ms = unix_ms();
    line.during_play = t->table->state() == TableState::playing;
    line.match = line.during_play ? t->table->match_number() : 0;
    const ChatLine& kept = t->chat.add(std::move(line));
    // One text for every recipient; a spectator's line during play never reaches a player.
    const std::string frame = chat_json(t->table->id(), kept).dump();
    for (const auto& watcher : t->watchers) {
        auto w = guests_.find(watcher);
        if (w == guests_.end() || w->second.table != t->table->id()) continue;
        if (!visible_to(kept, /*player=*/w->second.seat.has_value())) continue;
        for (ConnId to : w->second.conns) out_.send(to, frame);
    }
    reply(conn, id, ok_json());
}

void Hall::send_chat_history(const std::string& name, TableEntry& t) {
    auto g = guests_.find(name);
    if (g == guests_.end() || g->second.conns.empty()) return;
    const auto& lines = t.chat.recent(/*player=*/g->second.seat.has_value());
    if (lines.empty()) return;  // nothing to read: no message
    const std::string frame = chat_history_json(t.table->id(), lines).dump();
    for (ConnId to : g->second.conns) out_.send(to, frame);
}

void Hall::attach_chat(FinishedMatch& f, TableEntry& t) {
    // Only a match with chat gains the key: other records stay as they were.
    auto lines = t.chat.take_match(t.table->match_number());
    if (!lines.empty() && f.record.is_object()) f.record["chat"] = chat_record_json(lines);
}

}  // namespace tarneeb::server
