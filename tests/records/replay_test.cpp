// Reading records (docs/record-format.md "Precise reading"): each rule of the format.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tarneeb/records/record.hpp"
#include "../test_util.hpp"

namespace tarneeb::records {
namespace {

using nlohmann::json;

/// A complete legal deal (dealer 0): s1 bids 8 and names spades; timeouts play it out.
json legal_deal() {
    json hands = json::array();
    for (CardSet h : test::mixed_deal()) hands.push_back(to_string(h));
    json play = json::array();
    for (int i = 0; i < 52; ++i) play.push_back("timeout");
    return {{"hands", hands}, {"auction", {8, "pass", "pass", "pass"}}, {"trump", "S"}, {"play", play}};
}

json record_with(json deal) {
    return {{"format", "tarneeb-record/1"}, {"rules", "levantine"}, {"first_dealer", 0}, {"deals", {deal}}};
}

struct Expect {
    std::optional<int> deal;
    std::string phase;
    std::optional<int> index;
    std::string code;
};

void expect_error(const json& record, const Expect& want) {
    const Replay r = replay(record.dump());
    ASSERT_TRUE(r.error.has_value()) << record.dump().substr(0, 200);
    EXPECT_EQ(to_string(r.error->code), want.code);
    EXPECT_EQ(r.error->deal, want.deal);
    EXPECT_EQ(r.error->phase, want.phase);
    EXPECT_EQ(r.error->index, want.index);
    const json out = result_json(r);
    EXPECT_FALSE(out["ok"].get<bool>());
    EXPECT_EQ(out["error"]["code"], want.code);
}

TEST(Replay, ALegalCompleteDeal) {
    const Replay r = replay(record_with(legal_deal()).dump());
    ASSERT_FALSE(r.error.has_value());
    const json out = result_json(r);
    EXPECT_EQ(out["format"], "tarneeb-result/1");
    EXPECT_TRUE(out["ok"].get<bool>());
    EXPECT_EQ(out["scored_rounds"], 1);
    EXPECT_EQ(out["deals"][0]["declarer"], 1);
    EXPECT_EQ(out["deals"][0]["trump"], "S");
    EXPECT_EQ(out["deals"][0]["play"].size(), 52u);
    EXPECT_EQ(out["deals"][0]["auction"], json({8, "pass", "pass", "pass"}));
    EXPECT_FALSE(out.contains("tiebreak"));
}

TEST(Replay, UnreadableJsonOrWrongTopLevel) {
    for (const char* text : {"", "not json", "[1,2]", "{\"format\": \"tarneeb-record/1\", \"deals\": [", "42"}) {
        const Replay r = replay(text);
        ASSERT_TRUE(r.error.has_value()) << text;
        EXPECT_EQ(r.error->code, ErrorCode::bad_format);
        EXPECT_FALSE(r.error->deal.has_value());
    }
}

TEST(Replay, TopLevelFieldsInOrder) {
    json rec = record_with(legal_deal());
    rec["format"] = "tarneeb-record/2";
    expect_error(rec, {std::nullopt, "record", std::nullopt, "bad_format"});
    rec = record_with(legal_deal());
    rec["rules"] = nullptr;
    expect_error(rec, {std::nullopt, "record", std::nullopt, "unknown_rules"});
    rec["rules"] = "Levantine";
    expect_error(rec, {std::nullopt, "record", std::nullopt, "unknown_rules"});
    for (json bad : {json(true), json("0"), json(4), json(-1), json(1.0), json(nullptr)}) {
        rec = record_with(legal_deal());
        rec["first_dealer"] = bad;
        expect_error(rec, {std::nullopt, "record", std::nullopt, "bad_dealer"});
    }
    rec = record_with(legal_deal());
    rec["bracket"] = "yes";
    expect_error(rec, {std::nullopt, "record", std::nullopt, "bad_format"});
    rec = record_with(legal_deal());
    rec["deals"] = json::object();
    expect_error(rec, {std::nullopt, "record", std::nullopt, "bad_format"});
    rec.erase("deals");
    expect_error(rec, {std::nullopt, "record", std::nullopt, "bad_format"});
}

TEST(Replay, DefaultsAndUnknownKeys) {
    json rec = {{"format", "tarneeb-record/1"}, {"deals", json::array()}, {"whatever", {1, 2}}};
    const Replay r = replay(rec.dump());
    ASSERT_FALSE(r.error.has_value());
    EXPECT_EQ(r.match.rules(), kLevantine);
    EXPECT_EQ(result_json(r)["status"], "in_progress");
}

TEST(Replay, Hands) {
    json deal = legal_deal();
    deal["hands"][2] = 5;
    expect_error(record_with(deal), {0, "hands", 2, "bad_hands"});
    deal = legal_deal();
    deal["hands"][1] = "AS KS";
    expect_error(record_with(deal), {0, "hands", 1, "bad_hands"});
    deal = legal_deal();
    deal["hands"][3] = "1S " + deal["hands"][3].get<std::string>();
    expect_error(record_with(deal), {0, "hands", 3, "bad_card"});
    deal = legal_deal();
    deal["hands"].erase(3);
    expect_error(record_with(deal), {0, "hands", std::nullopt, "bad_hands"});
    deal = legal_deal();
    deal["hands"][0] = deal["hands"][1];  // two seats with the same cards
    expect_error(record_with(deal), {0, "hands", std::nullopt, "bad_hands"});
    // Lists of card strings and any white space are fine; a non-string in a list is a bad card.
    deal = legal_deal();
    json as_list = json::array();
    const CardSet first = test::mixed_deal()[0];
    for (Card c : first) as_list.push_back(to_string(c));
    deal["hands"][0] = as_list;
    deal["hands"][1] = "2C\t4C\nJC  KC 7D JD AD 9H 2S 6S 9S 10s ks";
    EXPECT_FALSE(replay(record_with(deal).dump()).error.has_value());
    deal["hands"][0][4] = 7;
    expect_error(record_with(deal), {0, "hands", 0, "bad_card"});
}

TEST(Replay, AuctionCalls) {
    for (json bad : {json(8.0), json("08"), json(" 8"), json("Pass"), json(6), json(14), json(nullptr), json("14")}) {
        json deal = legal_deal();
        deal["auction"][1] = bad;
        expect_error(record_with(deal), {0, "auction", 1, "bad_bid"});
    }
    json deal = legal_deal();
    deal["auction"] = {8, 8};
    expect_error(record_with(deal), {0, "auction", 1, "bid_too_low"});
    deal = legal_deal();
    deal["auction"] = {8, "pass", "pass", "pass", "whatever"};
    expect_error(record_with(deal), {0, "auction", 4, "auction_closed"});
    deal = legal_deal();
    deal["auction"] = nullptr;
    expect_error(record_with(deal), {0, "auction", std::nullopt, "bad_format"});
    deal = legal_deal();
    deal["auction"] = {"8", "timeout", "pass", "pass"};
    EXPECT_FALSE(replay(record_with(deal).dump()).error.has_value());
}

TEST(Replay, TrumpAndPlayOrder) {
    json deal = legal_deal();
    deal["auction"] = {"pass", "pass", "pass", "pass"};
    expect_error(record_with(deal), {0, "trump", 0, "no_contract"});
    deal.erase("trump");
    expect_error(record_with(deal), {0, "play", 0, "no_contract"});
    deal = legal_deal();
    deal["auction"] = {8};
    expect_error(record_with(deal), {0, "trump", 0, "auction_open"});
    deal["trump"] = nullptr;
    expect_error(record_with(deal), {0, "play", 0, "auction_open"});
    deal = legal_deal();
    deal.erase("trump");
    expect_error(record_with(deal), {0, "play", 0, "trump_missing"});
    for (json bad : {json("X"), json("NT"), json(3), json("spades")}) {
        deal = legal_deal();
        deal["trump"] = bad;
        expect_error(record_with(deal), {0, "trump", 0, "bad_trump"});
    }
    deal = legal_deal();
    deal["trump"] = "s";
    EXPECT_FALSE(replay(record_with(deal).dump()).error.has_value());
    deal["trump"] = "timeout";
    EXPECT_FALSE(replay(record_with(deal).dump()).error.has_value());
    deal["play"] = "AS";
    expect_error(record_with(deal), {0, "play", std::nullopt, "bad_format"});
}

TEST(Replay, PlayErrors) {
    json deal = legal_deal();
    deal["play"][0] = "ZZ";
    expect_error(record_with(deal), {0, "play", 0, "bad_card"});
    deal = legal_deal();
    deal["play"][0] = "AS";  // s3 holds AS; s1 leads
    expect_error(record_with(deal), {0, "play", 0, "card_not_held"});
    deal = legal_deal();
    deal["play"] = {"2C", "3H"};  // s2 holds clubs
    expect_error(record_with(deal), {0, "play", 1, "must_follow_suit"});
    deal = legal_deal();
    deal["play"].push_back("AS");
    expect_error(record_with(deal), {0, "play", 52, "deal_over"});
}

TEST(Replay, UnfinishedDeals) {
    json deal = legal_deal();
    deal["play"].erase(deal["play"].begin() + 13, deal["play"].end());
    json rec = record_with(deal);
    const Replay r = replay(rec.dump());
    ASSERT_FALSE(r.error.has_value());  // only the last deal may be unfinished
    const json out = result_json(r);
    EXPECT_EQ(out["status"], "in_progress");
    EXPECT_EQ(out["deals"][0]["made"], nullptr);
    rec["deals"].push_back(legal_deal());
    expect_error(rec, {0, "play", 13, "deal_incomplete"});
    deal = legal_deal();
    deal.erase("trump");
    deal.erase("play");
    rec = record_with(deal);
    EXPECT_EQ(result_json(replay(rec.dump()))["deals"][0]["declarer"], 1);
    rec["deals"].push_back(legal_deal());
    expect_error(rec, {0, "trump", 0, "deal_incomplete"});
    deal["auction"] = {8, "pass"};
    rec = record_with(deal);
    EXPECT_EQ(result_json(replay(rec.dump()))["deals"][0]["declarer"], nullptr);
    rec["deals"].push_back(legal_deal());
    expect_error(rec, {0, "auction", 2, "deal_incomplete"});
}

TEST(Replay, ADealThatIsNotAnObject) {
    json rec = record_with(legal_deal());
    rec["deals"].push_back("deal");
    expect_error(rec, {1, "record", std::nullopt, "bad_format"});
}

TEST(Replay, DealsAfterTheMatchEndedAreRefused) {
    json rec = {{"format", "tarneeb-record/1"}, {"deals", json::array()}};
    json pass_deal = legal_deal();
    pass_deal["auction"] = {"pass", "pass", "pass", "pass"};
    pass_deal.erase("trump");
    pass_deal.erase("play");
    for (int i = 0; i < 8; ++i) rec["deals"].push_back(pass_deal);
    const Replay closed = replay(rec.dump());
    ASSERT_FALSE(closed.error.has_value());
    EXPECT_EQ(result_json(closed)["status"], "closed");
    rec["deals"].push_back(pass_deal);
    expect_error(rec, {8, "record", std::nullopt, "match_over"});
}

TEST(Replay, EveryDealerFollowsTheRules) {
    json pass_deal = legal_deal();
    pass_deal["auction"] = {"pass", "pass", "pass", "pass"};
    pass_deal.erase("trump");
    pass_deal.erase("play");
    for (const char* preset : {"levantine", "classic"}) {
        json rec = {{"format", "tarneeb-record/1"}, {"rules", preset}, {"first_dealer", 3},
                    {"deals", {pass_deal, legal_deal(), pass_deal}}};
        const json out = result_json(replay(rec.dump()));
        const bool lev = std::string(preset) == "levantine";
        EXPECT_EQ(out["deals"][0]["dealer"], 3);
        EXPECT_EQ(out["deals"][1]["dealer"], lev ? 0 : 3);
        EXPECT_EQ(out["deals"][2]["dealer"], lev ? 1 : 0);
    }
}

// "trick_list" (record-format.md): a hand-checked case. Seat 0 holds the spades, 1 the hearts,
// 2 the diamonds, 3 the clubs; seat 1 bids 7 and names diamonds and leads AH: seat 2 cannot
// follow and trumps with 2D, so seat 2 wins the first trick and leads the second (unfinished).
TEST(Replay, TrickListOfAHandCheckedDeal) {
    const json deal = {{"hands", {"AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
                                  "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D", "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"}},
                       {"auction", {7, "pass", "pass", "pass"}}, {"trump", "D"}, {"play", {"AH", "2D", "2C", "2S", "3D"}}};
    const Replay r = replay(record_with(deal).dump());
    ASSERT_FALSE(r.error.has_value());
    const json list = result_json(r)["deals"][0]["trick_list"];
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0], json::parse(R"({"leader":1,"cards":[{"seat":1,"card":"AH"},{"seat":2,"card":"2D"},)"
                                   R"({"seat":3,"card":"2C"},{"seat":0,"card":"2S"}],"winner":2})"));
    EXPECT_EQ(list[1], json::parse(R"({"leader":2,"cards":[{"seat":2,"card":"3D"}],"winner":null})"));
    // Before the play, and for a passed-out deal, there is no trick.
    json open = deal;
    open.erase("play");
    EXPECT_EQ(result_json(replay(record_with(open).dump()))["deals"][0]["trick_list"], json::array());
    json passed = deal;
    passed["auction"] = {"pass", "pass", "pass", "pass"};
    passed.erase("trump");
    passed.erase("play");
    EXPECT_EQ(result_json(replay(record_with(passed).dump()))["deals"][0]["trick_list"], json::array());
}

// Every trick of every legal shared example: the cards of trick_list, in order, are the
// resolved "play"; each winner is the engine's (Round::trick_winner, and core Trick's winner()
// of the same four cards); each trick is led by the previous one's winner (the first by the
// declarer); the winners' teams add up to "tricks"; only an unfinished last trick has no winner.
TEST(Replay, TrickListOfEverySharedExampleAgreesWithTheEngine) {
    namespace fs = std::filesystem;
    int tricks_checked = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(TARNEEB_TEST_DATA) / "records")) {
        const std::string name = entry.path().filename().string();
        if (name.find(".expected.") != std::string::npos) continue;
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        const Replay r = replay(text.str());
        const json out = result_json(r);
        for (std::size_t d = 0; d < out["deals"].size(); ++d) {
            const json& deal = out["deals"][d];
            const Round& round = r.match.rounds()[d];
            const json& list = deal.at("trick_list");
            json cards = json::array();
            std::array<int, 2> taken{};
            for (std::size_t t = 0; t < list.size(); ++t) {
                const json& trick = list[t];
                const int leader = trick["leader"];
                EXPECT_EQ(leader, t == 0 ? deal["declarer"].get<int>() : list[t - 1]["winner"].get<int>()) << name;
                Trick engine(seat(leader), round.trump());
                for (std::size_t i = 0; i < trick["cards"].size(); ++i) {
                    const json& c = trick["cards"][i];
                    EXPECT_EQ(c["seat"], (leader + static_cast<int>(i)) % 4) << name;
                    cards.push_back(c["card"]);
                    engine.add(*parse_card(c["card"].get<std::string>()));
                }
                if (trick["cards"].size() == 4) {
                    ASSERT_FALSE(trick["winner"].is_null()) << name;
                    EXPECT_EQ(trick["winner"], index(round.trick_winner(static_cast<int>(t)))) << name;
                    EXPECT_EQ(trick["winner"], index(engine.winner())) << name;
                    ++taken[trick["winner"].get<int>() % 2];
                    ++tricks_checked;
                } else {
                    EXPECT_EQ(t + 1, list.size()) << name << ": only the last trick may be unfinished";
                    EXPECT_FALSE(trick["cards"].empty()) << name;
                    EXPECT_TRUE(trick["winner"].is_null()) << name;
                }
            }
            EXPECT_EQ(cards, deal["play"]) << name << " deal " << d;
            EXPECT_EQ(json(taken), deal["tricks"]) << name << " deal " << d;
        }
    }
    EXPECT_GT(tricks_checked, 1000);
}

// Every shared example, in-process (the CTest test `shared_record_examples` runs the binary).
TEST(Replay, SharedExamplesInProcess) {
    namespace fs = std::filesystem;
    int n = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(TARNEEB_TEST_DATA) / "records")) {
        const std::string name = entry.path().filename().string();
        if (name.find(".expected.") != std::string::npos) continue;
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        std::ifstream ex(entry.path().parent_path() / (entry.path().stem().string() + ".expected.json"));
        const json want = json::parse(ex);
        const json got = result_json(replay(text.str()));
        ++n;
        ASSERT_EQ(got["ok"], want["ok"]) << name;
        if (!want["ok"].get<bool>()) {
            EXPECT_EQ(got["error"], want["error"]) << name;
            continue;
        }
        for (const char* key : {"status", "winner", "totals", "scored_rounds"}) EXPECT_EQ(got[key], want[key]) << name << " " << key;
        EXPECT_EQ(got.value("tiebreak", false), want.value("tiebreak", false)) << name;
        ASSERT_EQ(got["deals"].size(), want["deals"].size()) << name;
        for (std::size_t i = 0; i < got["deals"].size(); ++i)
            for (auto& [key, value] : want["deals"][i].items()) EXPECT_EQ(got["deals"][i][key], value) << name << " deal " << i << " " << key;
    }
    EXPECT_EQ(n, 105);
}

}  // namespace
}  // namespace tarneeb::records
