// Reading a client message into its typed request (client_request.hpp): the only place the
// server reads a client's JSON after the transport has parsed it.
#include "tarneeb/server/client_request.hpp"

#include <algorithm>
#include <string_view>

#include "tarneeb/room/protocol.hpp"
#include "tarneeb/server/chat.hpp"

namespace tarneeb::server {

using nlohmann::json;

namespace {

/// The string field `key`, or nullopt when absent or not a string.
std::optional<std::string> string_field(const json& msg, const char* key) {
    auto it = msg.find(key);
    if (it == msg.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
}

/// A seat field: nullopt when absent, not an integer or not 0..3.
std::optional<Seat> seat_field(const json& msg, const char* key) {
    auto it = msg.find(key);
    if (it == msg.end() || !it->is_number_integer()) return std::nullopt;
    const std::int64_t s = it->get<std::int64_t>();
    if (s < 0 || s > 3) return std::nullopt;
    return seat(static_cast<int>(s));
}

BadRequest bad_message(std::string message) { return {std::string(to_string(ProtocolError::bad_message)), std::move(message)}; }

RequestBody read_hello(const json& msg) {
    HelloRequest h;
    if (msg.contains("password")) {
        h.kind = HelloRequest::Kind::password;
        h.name = string_field(msg, "name");
        h.password = string_field(msg, "password");
    } else if (auto token = string_field(msg, "token")) {
        h.kind = HelloRequest::Kind::token;
        h.token = std::move(*token);
    } else if (auto name = string_field(msg, "name")) {
        h.kind = HelloRequest::Kind::name;
        h.name = std::move(name);
    }
    return h;
}

RequestBody read_list(const json& msg) {
    ListRequest l;
    if (auto c = msg.find("cursor"); c != msg.end() && !c->is_null()) {
        if (!c->is_string()) return bad_message("cursor must be a string or null");
        l.cursor = c->get<std::string>();
    }
    if (auto n = msg.find("limit"); n != msg.end() && !n->is_null()) {
        if (!n->is_number_integer() || n->get<std::int64_t>() < 1) return bad_message("limit must be an integer of at least 1");
        l.limit = n->get<std::int64_t>();
    }
    if (auto w = msg.find("watch"); w != msg.end() && !w->is_null()) {
        if (!w->is_boolean()) return bad_message("watch must be a boolean");
        l.watch = w->get<bool>();
    }
    return l;
}

RequestBody read_join(const json& msg) {
    auto table = string_field(msg, "table");
    if (!table) return bad_message("join needs a table");
    JoinRequest j;
    j.table = std::move(*table);
    j.code = string_field(msg, "code");
    if (auto s = msg.find("seat"); s != msg.end() && !s->is_null()) {
        j.sit = true;
        j.seat = seat_field(msg, "seat");
    }
    return TableRequest{std::move(j)};
}

ChatRequest read_chat(const json& msg) {
    ChatRequest r;
    const auto text = msg.find("text");
    const auto phrase = msg.find("phrase");
    const bool has_text = text != msg.end() && !text->is_null();
    const bool has_phrase = phrase != msg.end() && !phrase->is_null();
    if (has_text == has_phrase) {
        r.bad = BadRequest{"bad_chat", "a chat line has either a text or a phrase"};
    } else if (has_text) {
        if (!text->is_string()) {
            r.bad = BadRequest{"bad_chat", "text must be a string"};
        } else {
            ChatText checked = normalize_chat(text->get_ref<const std::string&>());
            if (!checked.text) {
                r.bad = BadRequest{"bad_chat", std::string(describe(checked.problem))};
                r.reason = std::string(reason(checked.problem));
            } else {
                r.text = std::move(*checked.text);
            }
        }
    } else if (!phrase->is_string() || !is_quick_phrase(phrase->get_ref<const std::string&>())) {
        r.bad = BadRequest{"unknown_phrase", ""};
    } else {
        r.phrase = phrase->get<std::string>();
    }
    return r;
}

/// The kind of a tournament message other than tournament_create, nullopt for any other type.
std::optional<TournamentRequest::Kind> tournament_kind(std::string_view type) {
    using Kind = TournamentRequest::Kind;
    static constexpr std::pair<std::string_view, Kind> kKinds[] = {
        {"tournament_open", Kind::open},   {"tournament_close", Kind::close}, {"tournament_start", Kind::start},
        {"tournament_cancel", Kind::cancel}, {"tournament_enter", Kind::enter}, {"tournament_accept", Kind::accept},
        {"tournament_withdraw", Kind::withdraw},
    };
    for (const auto& [name, kind] : kKinds)
        if (name == type) return kind;
    return std::nullopt;
}

RequestBody read_tournament(TournamentRequest::Kind kind, const json& msg) {
    using Kind = TournamentRequest::Kind;
    TournamentRequest t;
    t.kind = kind;
    auto tid = string_field(msg, "tournament");
    if (!tid) return bad_message("needs a tournament");
    t.tournament = std::move(*tid);
    if (t.kind == Kind::enter) {
        if (auto ps = msg.find("players"); ps != msg.end()) {
            if (!ps->is_array() || ps->size() != 2 || !(*ps)[0].is_string() || !(*ps)[1].is_string())
                t.bad_team = true;
            else
                t.players = std::array<std::string, 2>{(*ps)[0].get<std::string>(), (*ps)[1].get<std::string>()};
        } else {
            t.other = string_field(msg, "partner");
        }
    } else if (t.kind == Kind::withdraw) {
        t.other = string_field(msg, "player");
    }
    return t;
}

}  // namespace

ClientRequest parse_client_request(const json& msg) {
    ClientRequest r;
    r.id = request_id(msg);
    const std::string& type = msg["type"].get_ref<const std::string&>();
    r.signed_in = type != "ping" && type != "hello";
    if (type == "ping") r.body = PingRequest{};
    else if (type == "hello") r.body = read_hello(msg);
    else if (type == "list") r.body = read_list(msg);
    else if (type == "create") {
        if (auto settings = parse_settings(msg)) {
            settings->quick = false;  // only quick_play makes a quick-play table
            r.body = CreateRequest{std::move(*settings)};
        } else {
            r.body = BadRequest{std::string(to_string(ProtocolError::bad_settings)), ""};
        }
    } else if (type == "quick_play") {
        QuickPlayRequest q;
        if (auto p = msg.find("preset"); p != msg.end() && !p->is_null())
            q.preset = p->is_string() ? parse_preset(p->get_ref<const std::string&>()) : std::nullopt;
        if (q.preset) r.body = q;
        else r.body = BadRequest{std::string(to_string(ProtocolError::bad_settings)), "preset: levantine or classic"};
    } else if (type == "join") r.body = read_join(msg);
    else if (type == "leave") r.body = TableRequest{LeaveRequest{}};
    else if (type == "add_bot") r.body = TableRequest{AddBotRequest{seat_field(msg, "seat"), string_field(msg, "bot")}};
    else if (type == "remove_bot") r.body = TableRequest{RemoveBotRequest{seat_field(msg, "seat")}};
    else if (type == "start") r.body = TableRequest{StartRequest{}};
    else if (type == "act") {
        ActRequest a;
        if (auto v = msg.find("version"); v != msg.end() && v->is_number_unsigned()) a.version = v->get<std::uint64_t>();
        if (auto action = msg.find("action"); action != msg.end()) a.action = parse_action(*action);
        r.body = TableRequest{a};
    } else if (type == "hint") r.body = TableRequest{HintRequest{}};
    else if (type == "chat") r.body = TableRequest{read_chat(msg)};
    else if (type == "register") r.body = RegisterRequest{string_field(msg, "password")};
    else if (type == "change_password") r.body = ChangePasswordRequest{string_field(msg, "current"), string_field(msg, "password")};
    else if (type == "sign_out") r.body = SignOutRequest{};
    else if (type == "sign_out_everywhere") r.body = SignOutEverywhereRequest{};
    else if (type == "tournament_create") r.body = TournamentCreateRequest{parse_tournament_settings(msg)};
    else if (auto kind = tournament_kind(type)) r.body = read_tournament(*kind, msg);
    else {
        // Unknown wherever the guest is (before hello too). At most 32 bytes of the type, cut at
        // a character boundary (the answer must stay UTF-8).
        r.signed_in = false;
        std::size_t n = std::min<std::size_t>(type.size(), 32);
        while (n > 0 && n < type.size() && (static_cast<unsigned char>(type[n]) & 0xC0) == 0x80) --n;
        r.body = BadRequest{std::string(to_string(ProtocolError::unknown_type)), "unknown message type " + type.substr(0, n)};
    }
    return r;
}

}  // namespace tarneeb::server
