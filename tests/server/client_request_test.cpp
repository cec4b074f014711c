// Reading client messages into typed requests (client_request.hpp): what each message becomes,
// and which refusals are decided when reading and which are kept for the table to answer.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tarneeb/server/client_request.hpp"

namespace tarneeb::server {
namespace {

using nlohmann::json;

ClientRequest read(const char* text) { return parse_client_request(json::parse(text)); }

// A copy: the request read by read() is a temporary that ends with the full expression.
template <class T>
T table_request(const ClientRequest& r) {
    return std::get<T>(std::get<TableRequest>(r.body));
}

TEST(ClientRequest, PingAndHelloNeedNoSignInAndEveryOtherKnownTypeDoes) {
    EXPECT_FALSE(read(R"({"type":"ping"})").signed_in);
    EXPECT_FALSE(read(R"({"type":"hello","name":"a"})").signed_in);
    for (const char* type : {"list", "create", "join", "leave", "add_bot", "remove_bot", "start", "act", "hint", "chat",
                             "register", "change_password", "sign_out", "sign_out_everywhere", "tournament_create",
                             "tournament_open", "tournament_close", "tournament_start", "tournament_cancel",
                             "tournament_enter", "tournament_withdraw"}) {
        const ClientRequest r = parse_client_request(json{{"type", type}});
        EXPECT_TRUE(r.signed_in) << type;
    }
}

TEST(ClientRequest, AnUnknownTypeIsRefusedAtOnceWithItsFirst32BytesCutAtACharacter) {
    // 31 ASCII bytes then a two-byte character: the cut falls inside it and moves back before it.
    const std::string type = std::string(31, 'x') + "\xC3\xA9" + "tail";
    const ClientRequest r = parse_client_request(json{{"type", type}, {"id", 7}});
    EXPECT_FALSE(r.signed_in);  // unknown wherever the guest is, before hello too
    EXPECT_EQ(r.id, 7);
    const auto& bad = std::get<BadRequest>(r.body);
    EXPECT_EQ(bad.code, "unknown_type");
    EXPECT_EQ(bad.message, "unknown message type " + std::string(31, 'x'));
}

TEST(ClientRequest, HelloIsAPasswordSignInWheneverAPasswordKeyIsThereEvenOfTheWrongType) {
    const auto h = std::get<HelloRequest>(read(R"({"type":"hello","name":"a","password":5,"token":"t"})").body);
    EXPECT_EQ(h.kind, HelloRequest::Kind::password);
    EXPECT_EQ(h.name, "a");
    EXPECT_EQ(h.password, std::nullopt);
    EXPECT_EQ(std::get<HelloRequest>(read(R"({"type":"hello","token":"t","name":"a"})").body).kind, HelloRequest::Kind::token);
    EXPECT_EQ(std::get<HelloRequest>(read(R"({"type":"hello","token":1,"name":"a"})").body).kind, HelloRequest::Kind::name);
    EXPECT_EQ(std::get<HelloRequest>(read(R"({"type":"hello"})").body).kind, HelloRequest::Kind::none);
}

TEST(ClientRequest, ListFieldsAreCheckedWhenRead) {
    EXPECT_EQ(std::get<BadRequest>(read(R"({"type":"list","cursor":3})").body).message, "cursor must be a string or null");
    EXPECT_EQ(std::get<BadRequest>(read(R"({"type":"list","limit":0})").body).message, "limit must be an integer of at least 1");
    EXPECT_EQ(std::get<BadRequest>(read(R"({"type":"list","watch":"yes"})").body).message, "watch must be a boolean");
    const auto l = std::get<ListRequest>(read(R"({"type":"list","cursor":"t9","limit":5,"watch":true})").body);
    EXPECT_EQ(l.cursor, "t9");
    EXPECT_EQ(l.limit, 5);
    EXPECT_TRUE(l.watch);
}

TEST(ClientRequest, ASeatOutOfRangeIsKeptForTheTableToRefuseAfterItsOwnChecks) {
    const auto sit = table_request<JoinRequest>(read(R"({"type":"join","table":"t1","seat":4})"));
    EXPECT_TRUE(sit.sit);
    EXPECT_EQ(sit.seat, std::nullopt);  // bad_seat, answered after no_such_table and bad_code
    const auto watch = table_request<JoinRequest>(read(R"({"type":"join","table":"t1","seat":null,"code":7})"));
    EXPECT_FALSE(watch.sit);
    EXPECT_EQ(watch.code, std::nullopt);
    EXPECT_EQ(table_request<JoinRequest>(read(R"({"type":"join","table":"t1","seat":2})")).seat, Seat::s2);
    EXPECT_EQ(std::get<BadRequest>(read(R"({"type":"join"})").body).message, "join needs a table");
    EXPECT_EQ(table_request<AddBotRequest>(read(R"({"type":"add_bot","seat":-1,"bot":"pimc"})")).seat, std::nullopt);
    EXPECT_EQ(table_request<AddBotRequest>(read(R"({"type":"add_bot","seat":1})")).bot, std::nullopt);
    EXPECT_EQ(table_request<RemoveBotRequest>(read(R"({"type":"remove_bot","seat":"1"})")).seat, std::nullopt);
}

TEST(ClientRequest, AnActWithoutAVersionOrAnActionIsKeptForTheTableToRefuse) {
    const auto none = table_request<ActRequest>(read(R"({"type":"act","version":-1,"action":{"call":"double"}})"));
    EXPECT_EQ(none.version, std::nullopt);
    EXPECT_EQ(none.action, std::nullopt);
    const auto card = table_request<ActRequest>(read(R"({"type":"act","version":12,"action":{"card":"QS"}})"));
    EXPECT_EQ(card.version, 12u);
    ASSERT_TRUE(card.action.has_value());
}

TEST(ClientRequest, AChatLineIsCheckedWhenReadAndItsRefusalWaitsForTheTable) {
    EXPECT_EQ(table_request<ChatRequest>(read(R"({"type":"chat","text":"hi","phrase":"gg"})")).bad->code, "bad_chat");
    EXPECT_EQ(table_request<ChatRequest>(read(R"({"type":"chat","text":5})")).bad->message, "text must be a string");
    EXPECT_EQ(table_request<ChatRequest>(read(R"({"type":"chat","phrase":"no-such-phrase"})")).bad->code, "unknown_phrase");
    const auto line = table_request<ChatRequest>(read(R"({"type":"chat","text":"  hello  "})"));
    EXPECT_FALSE(line.bad.has_value());
    EXPECT_FALSE(line.text.empty());
    EXPECT_TRUE(line.phrase.empty());
}

TEST(ClientRequest, TournamentMessagesNeedTheirTournamentAndAnEntrysTeamIsReadWhole) {
    EXPECT_EQ(std::get<BadRequest>(read(R"({"type":"tournament_open"})").body).message, "needs a tournament");
    const auto bad = std::get<TournamentRequest>(read(R"({"type":"tournament_enter","tournament":"T1","players":["a"]})").body);
    EXPECT_TRUE(bad.bad_team);  // bad_team, answered after no_such_tournament
    const auto team = std::get<TournamentRequest>(read(R"({"type":"tournament_enter","tournament":"T1","players":["a","b"]})").body);
    EXPECT_EQ(team.kind, TournamentRequest::Kind::enter);
    EXPECT_EQ(team.players, (std::array<std::string, 2>{"a", "b"}));
    const auto partner = std::get<TournamentRequest>(read(R"({"type":"tournament_enter","tournament":"T1","partner":"b"})").body);
    EXPECT_EQ(partner.other, "b");
    EXPECT_EQ(std::get<TournamentRequest>(read(R"({"type":"tournament_withdraw","tournament":"T1","player":"c"})").body).other, "c");
    EXPECT_FALSE(std::get<TournamentCreateRequest>(read(R"({"type":"tournament_create","name":5})").body).settings.has_value());
}

TEST(ClientRequest, CreateReadsItsSettingsOrRefusesThem) {
    EXPECT_EQ(std::get<BadRequest>(read(R"({"type":"create","target":0})").body).code, "bad_settings");
    EXPECT_EQ(std::get<CreateRequest>(read(R"({"type":"create","target":41})").body).settings.target, 41);
}

}  // namespace
}  // namespace tarneeb::server
