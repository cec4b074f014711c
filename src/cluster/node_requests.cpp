// A table request between nodes (include/tarneeb/cluster/node_requests.hpp).
#include "tarneeb/cluster/node_requests.hpp"

#include <string>

#include "tarneeb/room/protocol.hpp"
#include "tarneeb/support/overloaded.hpp"

namespace tarneeb::server {

using nlohmann::json;

namespace {

json seat_value(const std::optional<Seat>& s) { return s ? json(index(*s)) : json(nullptr); }

/// The seat of field `key`: absent or null → nullopt; 0..3 → that seat; anything else → false.
bool read_seat(const json& j, const char* key, std::optional<Seat>& out) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return true;
    if (!it->is_number_integer() || it->get<std::int64_t>() < 0 || it->get<std::int64_t>() > 3) return false;
    out = seat(it->get<int>());
    return true;
}

/// The string field `key`: absent or null → nullopt; a string → it; anything else → false.
bool read_text(const json& j, const char* key, std::optional<std::string>& out) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return true;
    if (!it->is_string()) return false;
    out = it->get<std::string>();
    return true;
}

}  // namespace

json node_request_json(const TableRequest& r) {
    json j{{"q", std::string(request_type(r))}};
    std::visit(Overloaded{
                   [&](const JoinRequest& x) {
                       j["table"] = x.table;
                       if (x.code) j["code"] = *x.code;
                       j["sit"] = x.sit;
                       j["seat"] = seat_value(x.seat);
                   },
                   [&](const AddBotRequest& x) {
                       j["seat"] = seat_value(x.seat);
                       if (x.bot) j["bot"] = *x.bot;
                   },
                   [&](const RemoveBotRequest& x) { j["seat"] = seat_value(x.seat); },
                   [&](const ActRequest& x) {
                       if (x.version) j["version"] = *x.version;
                       if (x.action) j["action"] = action_json(*x.action);
                   },
                   [&](const ChatRequest& x) {
                       j["text"] = x.text;
                       j["phrase"] = x.phrase;
                       if (x.bad) j["bad"] = json::array({x.bad->code, x.bad->message});
                       if (!x.reason.empty()) j["reason"] = x.reason;
                       if (!x.address.empty()) j["address"] = x.address;
                   },
                   [](const auto&) {},  // leave, start, hint: the type alone
               },
               r);
    return j;
}

std::optional<TableRequest> parse_node_request(const json& j) {
    if (!j.is_object() || !j.contains("q") || !j["q"].is_string()) return std::nullopt;
    const std::string& q = j["q"].get_ref<const std::string&>();
    if (q == "join") {
        JoinRequest x;
        std::optional<std::string> table;
        if (!read_text(j, "table", table) || !table || !read_text(j, "code", x.code) || !read_seat(j, "seat", x.seat)) return std::nullopt;
        if (!j.contains("sit") || !j["sit"].is_boolean()) return std::nullopt;
        x.table = std::move(*table);
        x.sit = j["sit"].get<bool>();
        return TableRequest{std::move(x)};
    }
    if (q == "leave") return TableRequest{LeaveRequest{}};
    if (q == "start") return TableRequest{StartRequest{}};
    if (q == "hint") return TableRequest{HintRequest{}};
    if (q == "add_bot") {
        AddBotRequest x;
        if (!read_seat(j, "seat", x.seat) || !read_text(j, "bot", x.bot)) return std::nullopt;
        return TableRequest{std::move(x)};
    }
    if (q == "remove_bot") {
        RemoveBotRequest x;
        if (!read_seat(j, "seat", x.seat)) return std::nullopt;
        return TableRequest{x};
    }
    if (q == "act") {
        ActRequest x;
        if (auto v = j.find("version"); v != j.end()) {
            if (!v->is_number_unsigned()) return std::nullopt;
            x.version = v->get<std::uint64_t>();
        }
        if (auto a = j.find("action"); a != j.end()) {
            x.action = parse_action(*a);
            if (!x.action) return std::nullopt;
        }
        return TableRequest{x};
    }
    if (q == "chat") {
        ChatRequest x;
        std::optional<std::string> text, phrase, reason, address;
        if (!read_text(j, "text", text) || !read_text(j, "phrase", phrase) || !read_text(j, "reason", reason) ||
            !read_text(j, "address", address))
            return std::nullopt;
        x.text = text.value_or("");
        x.phrase = phrase.value_or("");
        x.reason = reason.value_or("");
        x.address = address.value_or("");
        if (auto bad = j.find("bad"); bad != j.end()) {
            if (!bad->is_array() || bad->size() != 2 || !(*bad)[0].is_string() || !(*bad)[1].is_string()) return std::nullopt;
            x.bad = BadRequest{(*bad)[0].get<std::string>(), (*bad)[1].get<std::string>()};
        }
        return TableRequest{std::move(x)};
    }
    return std::nullopt;
}

json node_place_json(const std::optional<Place>& p) {
    if (!p) return nullptr;
    return {{"table", p->table}, {"seat", seat_value(p->seat)}};
}

std::optional<Place> parse_node_place(const json& j) {
    if (!j.is_object() || !j.contains("table") || !j["table"].is_string()) return std::nullopt;
    Place p{j["table"].get<std::string>(), std::nullopt};
    if (!read_seat(j, "seat", p.seat)) return std::nullopt;
    return p;
}

}  // namespace tarneeb::server
