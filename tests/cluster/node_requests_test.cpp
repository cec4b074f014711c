// A table request between nodes (include/tarneeb/cluster/node_requests.hpp): every typed request
// the front read comes back the same on the table's node, what the client wrote wrong included,
// and a message of any other shape is refused rather than half read.
#include <gtest/gtest.h>

#include <vector>

#include "tarneeb/cluster/node_requests.hpp"

namespace tarneeb::server {
namespace {

using nlohmann::json;

/// The request as text that compares two requests field by field (node_request_json is checked
/// against parse_node_request, so equal texts mean equal requests only if the round trip holds).
json again(const TableRequest& r) {
    const json sent = node_request_json(r);
    const auto back = parse_node_request(json::parse(sent.dump()));
    EXPECT_TRUE(back) << sent;
    if (!back) return nullptr;
    EXPECT_EQ(back->index(), r.index()) << sent;
    return node_request_json(*back);
}

TEST(NodeRequests, EveryRequestComesBackAsItWasRead) {
    const std::vector<TableRequest> requests = {
        JoinRequest{"t1", std::nullopt, false, std::nullopt},
        JoinRequest{"t1", "ab12", true, Seat::s1},
        JoinRequest{"t1", std::nullopt, true, std::nullopt},  // a seat out of range: bad_seat there
        LeaveRequest{},
        AddBotRequest{Seat::s3, "pimc"},
        AddBotRequest{std::nullopt, std::nullopt},
        RemoveBotRequest{Seat::s0},
        RemoveBotRequest{std::nullopt},
        StartRequest{},
        ActRequest{7, Action::bid(9)},
        ActRequest{std::nullopt, Action::play(Card(Suit::hearts, Rank::queen))},
        ActRequest{3, std::nullopt},  // an action of no shape: bad_action there
        ActRequest{3, Action::pass()},
        ActRequest{3, Action::name_trump(Suit::spades)},
        HintRequest{},
        ChatRequest{std::nullopt, "مرحبا", "", "", ""},
        ChatRequest{std::nullopt, "", "well_played", "", ""},
        ChatRequest{BadRequest{"bad_chat", "a chat line has either a text or a phrase"}, "", "", "", ""},
        ChatRequest{BadRequest{"bad_chat", "the line has nothing visible"}, "", "", "empty", "192.0.2.1"},
        ChatRequest{std::nullopt, "hi", "", "", "2001:db8::1"},
    };
    for (const auto& r : requests) EXPECT_EQ(again(r), node_request_json(r));
    // Fields that matter read back exactly.
    const auto join = parse_node_request(node_request_json(JoinRequest{"t9", "c0de", true, Seat::s2}));
    ASSERT_TRUE(join);
    const auto& j = std::get<JoinRequest>(*join);
    EXPECT_EQ(j.table, "t9");
    EXPECT_EQ(j.code, "c0de");
    EXPECT_TRUE(j.sit);
    EXPECT_EQ(j.seat, Seat::s2);
    const auto act = parse_node_request(node_request_json(ActRequest{42, Action::bid(8)}));
    ASSERT_TRUE(act);
    EXPECT_EQ(std::get<ActRequest>(*act).version, 42u);
    EXPECT_EQ(std::get<ActRequest>(*act).action, Action::bid(8));
    // A chat line keeps its sender's address (the chat limit per address) and a refusal's reason.
    const auto chat = parse_node_request(node_request_json(ChatRequest{BadRequest{"bad_chat", "m"}, "", "", "empty", "192.0.2.1"}));
    ASSERT_TRUE(chat);
    EXPECT_EQ(std::get<ChatRequest>(*chat).address, "192.0.2.1");
    EXPECT_EQ(std::get<ChatRequest>(*chat).reason, "empty");
}

TEST(NodeRequests, OtherShapesAreRefused) {
    for (const char* text : {R"(null)", R"([])", R"({})", R"({"q":"fly"})", R"({"q":7})", R"({"q":"join"})",
                             R"({"q":"join","table":"t","sit":"yes"})", R"({"q":"join","table":3,"sit":true})",
                             R"({"q":"join","table":"t","sit":true,"seat":4})", R"({"q":"add_bot","seat":-1})",
                             R"({"q":"act","version":-2})", R"({"q":"act","action":{"fly":1}})",
                             R"({"q":"chat","text":5})", R"({"q":"chat","bad":["bad_chat"]})"})
        EXPECT_FALSE(parse_node_request(json::parse(text))) << text;
}

TEST(NodeRequests, PlacesComeBack) {
    EXPECT_EQ(node_place_json(std::nullopt), json(nullptr));
    EXPECT_FALSE(parse_node_place(json(nullptr)));
    const auto seated = parse_node_place(node_place_json(Place{"t1", Seat::s3}));
    ASSERT_TRUE(seated);
    EXPECT_EQ(seated->table, "t1");
    EXPECT_EQ(seated->seat, Seat::s3);
    const auto watching = parse_node_place(node_place_json(Place{"t2", std::nullopt}));
    ASSERT_TRUE(watching);
    EXPECT_EQ(watching->table, "t2");
    EXPECT_FALSE(watching->seat);
    EXPECT_FALSE(parse_node_place(json{{"table", "t"}, {"seat", 9}}));
}

}  // namespace
}  // namespace tarneeb::server
