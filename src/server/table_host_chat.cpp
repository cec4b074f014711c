// The table host, table chat (issue 15; docs/protocol.md "Chat"; the rules of a line and of the
// two channels: include/tarneeb/server/chat.hpp): the `chat` request, the recent lines a guest
// gets when it arrives at a table, and the match's lines in its record. Chat needs no database
// write and no table change, so it is answered at once (include/tarneeb/server/table_host.hpp
// says what the host is).
#include <chrono>

#include "tarneeb/server/table_host.hpp"

namespace tarneeb::server {

using nlohmann::json;

namespace {
std::int64_t unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string rate_message(ChatLimit over) {
    const auto per = [](int lines, const char* whose) {
        return "at most " + std::to_string(lines) + " chat lines in " + std::to_string(kChatRateWindowMs / 1000) +
               " seconds " + whose;
    };
    if (over == ChatLimit::address) return per(kChatAddressLines, "from one address");
    if (over == ChatLimit::table) return per(kChatTableLines, "at a table");
    return per(kChatRateLines, "per guest");
}
}  // namespace

void TableHost::on_chat(const std::string& guest, const ChatRequest& request, Answer done) {
    Guest& g = guests_[guest];
    Hosted* t = g.table.empty() ? nullptr : find(g.table);
    if (!t) return done(error_json(to_string(ProtocolError::not_at_table)));
    if (request.bad) {
        json e = error_json(request.bad->code, request.bad->message);
        if (!request.reason.empty()) e["reason"] = request.reason;
        return done(e);
    }
    ChatLine line;
    line.text = request.text;
    line.phrase = request.phrase;
    // Counted only once the line is well formed: a refused line costs nothing.
    ChatRate* by_address = request.address.empty()
                               ? nullptr
                               : &chat_by_address_.try_emplace(request.address, kChatAddressLines).first->second;
    if (const ChatLimit over = chat_limit(g.chat_rate, by_address, t->chat_rate, g.seat.has_value(), front_.now());
        over != ChatLimit::none) {
        json e = error_json("chat_rate_limited", rate_message(over));
        e["scope"] = to_string(over);
        return done(e);
    }
    line.from = guest;
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
        if (w == guests_.end() || w->second.table != t->table->id() || !w->second.present) continue;
        if (!visible_to(kept, /*player=*/w->second.seat.has_value())) continue;
        front_.send(watcher, frame);
    }
    done(ok_json());
}

void TableHost::send_chat_history(const std::string& guest, Hosted& t) {
    auto g = guests_.find(guest);
    if (g == guests_.end() || !g->second.present) return;
    const auto& lines = t.chat.recent(/*player=*/g->second.seat.has_value());
    if (lines.empty()) return;  // nothing to read: no message
    front_.send(guest, chat_history_json(t.table->id(), lines).dump());
}

void TableHost::attach_chat(FinishedMatch& f, Hosted& t) {
    // Only a match with chat gains the key: other records stay as they were.
    auto lines = t.chat.take_match(t.table->match_number());
    if (!lines.empty() && f.record.is_object()) f.record["chat"] = chat_record_json(lines);
}

}  // namespace tarneeb::server
