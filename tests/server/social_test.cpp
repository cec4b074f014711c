// Issue 15, the social part: table chat (limits, quick phrases, the spectators' channel checked
// on the bytes each connection receives, recent lines for late joiners, the chat in the match
// record) and players' profiles (numbers from a stored match, private matches kept out).
// The hall is driven without sockets (hall_loop.hpp), as in hall_test.cpp.
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "hall_harness.hpp"
#include "tarneeb/records/record.hpp"
#include "tarneeb/server/chat.hpp"
#include "tarneeb/server/hall.hpp"
#include "tarneeb/server/hall_loop.hpp"
#include "test_bot.hpp"

namespace tarneeb::server {
namespace {

using nlohmann::json;

struct Harness : testing::HallHarness {
    /// Sends a chat line and returns the answer (ok or error).
    json chat(ConnId c, json line) {
        line["type"] = "chat";
        return request(c, std::move(line));
    }
};

std::string repeat(const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
}

// ---- the text of a line -------------------------------------------------------------------

TEST(Chat, TextIsNfcAtMost200CharactersWithoutControlOrBidiOverrides) {
    EXPECT_EQ(normalize_chat("Zoe\xCC\x88").text, "Zo\xC3\xAB");                     // NFC
    EXPECT_EQ(normalize_chat("\xD9\x8A\xD9\x84\xD8\xA7").text, "\xD9\x8A\xD9\x84\xD8\xA7");  // يلا
    const std::string alef = "\xD8\xA7";                                              // ا: 2 bytes, 1 code point
    EXPECT_TRUE(normalize_chat(repeat(alef, 200)).text);
    EXPECT_EQ(normalize_chat(repeat(alef, 201)).problem, ChatProblem::too_long);
    EXPECT_EQ(normalize_chat(repeat("a", 201)).problem, ChatProblem::too_long);
    // 200 characters: 200 e + U+0301 (400 code points as sent) become 200 é.
    EXPECT_TRUE(normalize_chat(repeat("e\xCC\x81", 200)).text);
    EXPECT_EQ(normalize_chat(repeat("\xD8\xA7", 2049)).problem, ChatProblem::too_long);  // over the bytes as sent
    for (const char* bad : {"a\nb", "a\rb", "tab\there", "\x7F", "\xC2\x85" /* NEL */, "x\xE2\x80\xAE" "abc" /* RLO */,
                            "\xE2\x80\xAA" /* LRE */, "\xE2\x81\xA7" "x" /* RLI */, "x\xE2\x81\xA9" /* PDI */})
        EXPECT_EQ(normalize_chat(bad).problem, ChatProblem::control) << bad;
    EXPECT_EQ(normalize_chat("").problem, ChatProblem::empty);
    EXPECT_EQ(normalize_chat("   ").problem, ChatProblem::empty);
    EXPECT_EQ(normalize_chat("\xC3\x28").problem, ChatProblem::not_utf8);
    EXPECT_EQ(normalize_chat("\xED\xA0\x80").problem, ChatProblem::not_utf8);  // a surrogate
    // Markup is text like any other (clients never render it as HTML).
    EXPECT_EQ(normalize_chat("<img src=x onerror=alert(1)>").text, "<img src=x onerror=alert(1)>");
}

TEST(Chat, RateIsFiveLinesInAnyTenSeconds) {
    ChatRate rate;
    for (int i = 0; i < 5; ++i) EXPECT_TRUE(rate.allow(1000 + i));
    EXPECT_FALSE(rate.allow(1005));
    EXPECT_FALSE(rate.allow(10999));  // the first line is still in the window
    EXPECT_TRUE(rate.allow(11000));   // it left the window: one more
    EXPECT_FALSE(rate.allow(11000));
    EXPECT_TRUE(rate.allow(11001));   // the second left too
}

/// The UTF-8 of code point `c`.
std::string cp(char32_t c) {
    std::string out;
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
    return out;
}

std::string cps(std::initializer_list<char32_t> cs) {
    std::string out;
    for (char32_t c : cs) out += cp(c);
    return out;
}

// Issue 27: lines of invisible characters were accepted, and a tower of marks drew over the
// neighbouring lines. The whole kind: default-ignorable and format characters are removed
// (emoji sequences keep theirs), separators are refused, marks per character are capped.
TEST(Chat, InvisibleCharactersAreRemovedAndALineNeedsAVisibleOne) {
    const char32_t invisible[] = {0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x3164, 0x115F, 0xFFA0, 0x180E, 0x00AD,
                                  0x034F, 0x200E, 0x200F, 0x061C, 0xE0041, 0xE007F, 0xFE0F, 0x2061, 0x2800};
    for (char32_t c : invisible) {
        EXPECT_EQ(normalize_chat(cp(c)).problem, ChatProblem::empty) << std::hex << static_cast<std::uint32_t>(c);
        EXPECT_EQ(normalize_chat(repeat(cp(c), 20)).problem, ChatProblem::empty) << std::hex << static_cast<std::uint32_t>(c);
        EXPECT_EQ(normalize_chat(" " + cp(c) + " ").problem, ChatProblem::empty) << std::hex << static_cast<std::uint32_t>(c);
        // Beside visible text, the invisible ones are removed (U+2800 is a blank, kept as such).
        EXPECT_EQ(normalize_chat("a" + cp(c) + "b").text, c == 0x2800 ? "a" + cp(c) + "b" : "ab") << std::hex << static_cast<std::uint32_t>(c);
    }
    for (char32_t c : {0x2028, 0x2029})  // line and paragraph separators: line breaks
        EXPECT_EQ(normalize_chat("a" + cp(c) + "b").problem, ChatProblem::control) << std::hex << static_cast<std::uint32_t>(c);
    // Marks: at most kChatMaxMarks on one character (Arabic harakat and Vietnamese pass).
    EXPECT_EQ(normalize_chat(repeat(cp(0x0301), 199)).problem, ChatProblem::too_many_marks);
    EXPECT_EQ(normalize_chat("Z" + repeat(cp(0x0301), 199)).problem, ChatProblem::too_many_marks);
    EXPECT_EQ(normalize_chat("a" + repeat(cp(0x0316), kChatMaxMarks + 1)).problem, ChatProblem::too_many_marks);
    EXPECT_TRUE(normalize_chat("a" + repeat(cp(0x0316), kChatMaxMarks)).text);
    EXPECT_TRUE(normalize_chat(cps({0x0628, 0x0651, 0x064E})).text);  // بَّ
    EXPECT_TRUE(normalize_chat(cps({0x1EC7})).text);                   // ệ
    EXPECT_EQ(normalize_chat(cp(0x0301)).problem, ChatProblem::empty);  // a mark alone shows nothing
    // Emoji sequences keep what they need.
    for (const std::string& emoji : {cps({0x1F468, 0x200D, 0x1F469, 0x200D, 0x1F467, 0x200D, 0x1F466}),  // family
                                     cps({0x2764, 0xFE0F}),                                              // ❤️
                                     cps({0x1F3F3, 0xFE0F, 0x200D, 0x1F308}),                            // rainbow flag
                                     cps({0x1F469, 0x1F3FD, 0x200D, 0x1F4BB}),                           // 👩🏽‍💻
                                     cps({0x31, 0xFE0F, 0x20E3}),                                        // keycap 1
                                     cps({0x1F3F4, 0xE0067, 0xE0062, 0xE0065, 0xE006E, 0xE0067, 0xE007F})})  // England
    {
        EXPECT_EQ(normalize_chat(emoji).text, emoji);
        EXPECT_EQ(chat_length(emoji), 1);
    }
    // A joiner outside an emoji sequence and a second selector are removed.
    EXPECT_EQ(normalize_chat(cps({'a', 0x200D, 'b'})).text, "ab");
    EXPECT_EQ(normalize_chat(cps({0x2764, 0xFE0F, 0xFE0F})).text, cps({0x2764, 0xFE0F}));
    EXPECT_EQ(normalize_chat(cps({'a', 0xE0067, 0xE007F})).text, "a");
    EXPECT_EQ(normalize_chat(cps({'e', 0x034F, 0x0301})).text, "\xC3\xA9");  // é, once the CGJ is gone
    EXPECT_EQ(reason(ChatProblem::empty), "empty");
    EXPECT_EQ(reason(ChatProblem::too_many_marks), "too_many_marks");
}

// Issue 27: 29 family emoji were refused "over 200 characters" (code points were counted).
TEST(Chat, LengthIsCountedInGraphemeClusters) {
    const std::string family = cps({0x1F468, 0x200D, 0x1F469, 0x200D, 0x1F467, 0x200D, 0x1F466});
    EXPECT_EQ(normalize_chat(repeat(family, 36)).text, repeat(family, 36));
    EXPECT_EQ(chat_length(repeat(family, 36)), 36);
    const std::string heart = cps({0x2764, 0xFE0F});
    EXPECT_TRUE(normalize_chat(repeat(heart, kChatMaxLength)).text);
    EXPECT_EQ(normalize_chat(repeat(heart, kChatMaxLength + 1)).problem, ChatProblem::too_long);
    EXPECT_TRUE(normalize_chat(repeat(cps({'e', 0x0301, 0x0316}), kChatMaxLength)).text);
    EXPECT_EQ(normalize_chat(repeat(cps({'e', 0x0301, 0x0316}), kChatMaxLength + 1)).problem, ChatProblem::too_long);
    // Removed characters are not counted.
    EXPECT_TRUE(normalize_chat(repeat("a" + cp(0x200B), kChatMaxLength)).text);
}

TEST(Chat, QuickPhrasesAreIds) {
    EXPECT_TRUE(is_quick_phrase("yalla"));
    EXPECT_TRUE(is_quick_phrase("afye"));
    EXPECT_TRUE(is_quick_phrase("well_played"));
    EXPECT_FALSE(is_quick_phrase("Yalla"));
    EXPECT_FALSE(is_quick_phrase(""));
}

TEST(Chat, LogKeepsRecentLinesPerAudienceAndTheMatchLinesForItsRecord) {
    ChatLog log;
    auto line = [](ChatChannel channel, bool during_play, int match) {
        ChatLine l;
        l.from = "x";
        l.channel = channel;
        l.text = "t";
        l.during_play = during_play;
        l.match = match;
        return l;
    };
    log.add(line(ChatChannel::players, false, 0));  // before the match: in no record
    for (int i = 0; i < 510; ++i) log.add(line(ChatChannel::players, true, 1));
    log.add(line(ChatChannel::spectators, true, 1));
    EXPECT_EQ(log.recent(false).size(), kChatRecent + 1);  // the channels are kept apart
    EXPECT_EQ(log.recent(false).back().channel, ChatChannel::spectators);
    EXPECT_EQ(log.recent(true).back().channel, ChatChannel::players);  // players never get it
    EXPECT_EQ(log.recent(true).back().seq, 511u);
    // Match 2 begins while match 1's (full) record part was not taken: it starts afresh.
    log.add(line(ChatChannel::players, true, 2));
    EXPECT_TRUE(log.take_match(1).empty());
    const auto second = log.take_match(2);
    ASSERT_EQ(second.size(), 1u);
    EXPECT_EQ(second[0].seq, 513u);
    ChatLog full;
    for (int i = 0; i < 510; ++i) full.add(line(ChatChannel::players, true, 1));
    EXPECT_EQ(full.take_match(1).size(), kChatRecordMax);
    EXPECT_TRUE(full.take_match(1).empty());  // taken once
}

// Issue 27: a late joiner's 50 lines held only spam. Spectators' lines are kept apart, so they
// never push the players' out.
TEST(Chat, SpectatorsLinesDoNotPushThePlayersOutOfTheHistory) {
    ChatLog log;
    ChatLine said;
    said.from = "Layla";
    said.channel = ChatChannel::players;
    said.text = "good game";
    log.add(said);
    ChatLine spam;
    spam.from = "spammer";
    spam.channel = ChatChannel::spectators;
    spam.text = "spam";
    for (int i = 0; i < 500; ++i) log.add(spam);
    for (bool player : {true, false}) {
        const auto lines = log.recent(player);
        ASSERT_EQ(lines.size(), 1 + kChatRecentSpectators);
        EXPECT_EQ(lines.front().text, "good game");
        EXPECT_EQ(lines.back().seq, 501u);
        EXPECT_TRUE(std::is_sorted(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.seq < b.seq; }));
    }
}

// ---- the hall -----------------------------------------------------------------------------

TEST(Chat, PlayersChatAndLimitsGiveStableErrors) {
    Harness h;
    const std::vector<ConnId> cs = {h.connect(), h.connect(), h.connect(), h.connect()};
    const ConnId lone = h.connect();
    h.sign_in(lone, "Nadia");
    EXPECT_EQ(h.chat(lone, {{"text", "hi"}})["code"], "not_at_table");
    const std::string tid = seat_four(h, cs);

    const std::string yalla = "\xD9\x8A\xD9\x84\xD8\xA7";  // يلا
    EXPECT_EQ(h.chat(cs[0], {{"text", yalla}})["type"], "ok");
    for (ConnId c : cs) {
        const json line = h.last(c, "chat");
        EXPECT_EQ(line["text"], yalla);
        EXPECT_EQ(line["from"], "Layla");
        EXPECT_EQ(line["seat"], 0);
        EXPECT_EQ(line["channel"], "players");
        EXPECT_EQ(line["table"], tid);
        EXPECT_EQ(line["seq"], 1);
    }
    EXPECT_EQ(h.chat(cs[1], {{"phrase", "afye"}})["type"], "ok");
    EXPECT_EQ(h.last(cs[0], "chat")["phrase"], "afye");
    EXPECT_FALSE(h.last(cs[0], "chat").contains("text"));

    EXPECT_EQ(h.chat(cs[1], {{"phrase", "nonsense"}})["code"], "unknown_phrase");
    EXPECT_EQ(h.chat(cs[1], {{"text", "a"}, {"phrase", "yalla"}})["code"], "bad_chat");
    EXPECT_EQ(h.chat(cs[1], json::object())["code"], "bad_chat");
    EXPECT_EQ(h.chat(cs[1], {{"text", 7}})["code"], "bad_chat");
    EXPECT_EQ(h.chat(cs[1], {{"text", repeat("a", 201)}})["code"], "bad_chat");
    EXPECT_EQ(h.chat(cs[1], {{"text", "a\xE2\x80\xAE" "b"}})["code"], "bad_chat");
    // Refused lines cost nothing: Omar has sent one line; four more pass, the sixth is refused.
    for (int i = 0; i < 4; ++i) EXPECT_EQ(h.chat(cs[1], {{"text", "line " + std::to_string(i)}})["type"], "ok");
    const json limited = h.chat(cs[1], {{"text", "one too many"}});
    EXPECT_EQ(limited["code"], "chat_rate_limited");
    EXPECT_EQ(h.bytes(cs[0]).find("one too many"), std::string::npos);
    h.now += kChatRateWindowMs;  // the window has passed
    EXPECT_EQ(h.chat(cs[1], {{"text", "again"}})["type"], "ok");
    // The limit is the guest's, over all its connections.
    const ConnId second = h.connect();
    h.send(second, {{"type", "hello"}, {"token", h.last(cs[2], "welcome")["token"]}});
    for (int i = 0; i < 3; ++i) EXPECT_EQ(h.chat(cs[2], {{"text", "x"}})["type"], "ok");
    for (int i = 0; i < 2; ++i) EXPECT_EQ(h.chat(second, {{"text", "y"}})["type"], "ok");
    EXPECT_EQ(h.chat(second, {{"text", "z"}})["code"], "chat_rate_limited");
}

// Issue 27: 20 guests from one address put 100 lines into a table in 1.2 s. Lines are limited
// per address and per table too; the table's limit holds spectators only, so players still talk.
TEST(Chat, LinesAreLimitedPerAddressAndPerTable) {
    Harness h;
    const std::vector<ConnId> cs = {h.connect("10.0.0.1"), h.connect("10.0.0.2"), h.connect("10.0.0.3"), h.connect("10.0.0.4")};
    const std::string tid = seat_four(h, cs);
    auto watcher = [&](const std::string& address, const std::string& name) {
        const ConnId c = h.connect(address);
        h.sign_in(c, name);
        h.send(c, {{"type", "join"}, {"table", tid}});
        return c;
    };
    std::vector<ConnId> crowd;
    for (int i = 0; i < 20; ++i) crowd.push_back(watcher("192.0.2.7", "crowd" + std::to_string(i)));
    int sent = 0;
    for (int round = 0; round < 5; ++round) {
        for (ConnId c : crowd) {
            const json answer = h.chat(c, {{"text", "spam"}});
            if (answer["type"] == "ok") {
                ++sent;
            } else {
                EXPECT_EQ(answer["code"], "chat_rate_limited");
                EXPECT_EQ(answer["scope"], "address");
            }
        }
    }
    EXPECT_EQ(sent, kChatAddressLines);
    EXPECT_EQ(h.chat(cs[0], {{"text", "players still talk"}})["type"], "ok");

    // Spectators from many addresses: the table takes kChatTableLines lines in the window (the
    // players' counted), then refuses spectators' lines, never the players'.
    h.now += kChatRateWindowMs;
    std::vector<ConnId> others;
    for (int i = 0; i < kChatTableLines + 5; ++i) others.push_back(watcher("198.51.100." + std::to_string(i), "w" + std::to_string(i)));
    EXPECT_EQ(h.chat(cs[1], {{"text", "from Omar"}})["type"], "ok");
    sent = 1;
    for (ConnId c : others) {
        const json answer = h.chat(c, {{"text", "more"}});
        if (answer["type"] == "ok") {
            ++sent;
        } else {
            EXPECT_EQ(answer["code"], "chat_rate_limited");
            EXPECT_EQ(answer["scope"], "table");
        }
    }
    EXPECT_EQ(sent, kChatTableLines);
    EXPECT_EQ(h.chat(cs[2], {{"text", "from Rana"}})["type"], "ok");
    // A late joiner still reads the players' lines among the spectators'.
    const ConnId late = watcher("203.0.113.9", "Late");
    std::string history = h.last(late, "chat_history").dump();
    for (const char* said : {"players still talk", "from Omar", "from Rana"}) EXPECT_NE(history.find(said), std::string::npos) << said;
    // Refused text says why with a stable reason.
    const json invisible = h.chat(cs[3], {{"text", "\xE2\x80\x8B\xE2\x80\x8B"}});
    EXPECT_EQ(invisible["code"], "bad_chat");
    EXPECT_EQ(invisible["reason"], "empty");
    EXPECT_EQ(h.chat(cs[3], {{"text", "a" + repeat("\xCC\x81", 9)}})["reason"], "too_many_marks");
}

// A spectator's line during play never reaches a player: checked on every byte each player's
// connection received, during play and after (reconnects and late joiners included).
TEST(Chat, SpectatorsChannelNeverReachesPlayersDuringPlay) {
    Harness h;
    const std::vector<ConnId> cs = {h.connect(), h.connect(), h.connect(), h.connect()};
    const std::string tid = seat_four(h, cs, {{"target", 5}, {"turn_seconds", 0}});
    const ConnId watcher = h.connect();
    h.sign_in(watcher, "Karim");
    h.send(watcher, {{"type", "join"}, {"table", tid}});
    ASSERT_EQ(h.last(watcher, "table")["you"], nullptr);

    // Before the match: the spectator's line reaches everyone.
    EXPECT_EQ(h.chat(watcher, {{"text", "before the deal"}})["type"], "ok");
    for (ConnId c : cs) EXPECT_EQ(h.last(c, "chat")["text"], "before the deal");
    EXPECT_EQ(h.last(cs[0], "chat")["channel"], "spectators");
    EXPECT_EQ(h.last(cs[0], "chat")["seat"], nullptr);

    h.send(cs[0], {{"type", "start"}});
    ASSERT_EQ(h.last(cs[0], "table")["state"], "playing");
    const std::string secret = "SECRET-HELP Omar holds the ace of spades";
    EXPECT_EQ(h.chat(watcher, {{"text", secret}})["type"], "ok");
    EXPECT_EQ(h.last(watcher, "chat")["text"], secret);  // the spectators read it
    EXPECT_EQ(h.chat(cs[1], {{"text", "player line"}})["type"], "ok");
    EXPECT_EQ(h.last(watcher, "chat")["text"], "player line");  // and the players' channel
    // A second spectator arriving now gets both lines; a player coming back gets only its own channel's.
    const ConnId late = h.connect();
    h.sign_in(late, "Huda");
    h.send(late, {{"type", "join"}, {"table", tid}});
    const json seen = h.last(late, "chat_history");
    ASSERT_EQ(seen["lines"].size(), 3u);
    EXPECT_EQ(seen["lines"][1]["text"], secret);
    const ConnId back = h.connect();
    h.send(back, {{"type", "hello"}, {"token", h.last(cs[2], "welcome")["token"]}});
    const json mine = h.last(back, "chat_history");
    ASSERT_EQ(mine["lines"].size(), 2u);
    EXPECT_EQ(mine["lines"][0]["text"], "before the deal");
    EXPECT_EQ(mine["lines"][1]["text"], "player line");

    h.play(cs);
    ASSERT_EQ(h.last(cs[0], "table")["state"], "finished");
    for (ConnId c : {cs[0], cs[1], cs[2], cs[3], back}) {
        const std::string bytes = h.bytes(c);
        EXPECT_EQ(bytes.find("SECRET-HELP"), std::string::npos) << "player connection " << c;
        // No chat frame carries a hand or any table state: only the line's own keys.
        for (const auto& f : h.frames[c]) {
            const json j = json::parse(f);
            if (j["type"] != "chat") continue;
            for (const auto& [key, value] : j.items())
                EXPECT_TRUE(key == "type" || key == "table" || key == "seq" || key == "from" || key == "seat" ||
                            key == "channel" || key == "text" || key == "phrase" || key == "at")
                    << key;
        }
    }
    EXPECT_NE(h.bytes(late).find("SECRET-HELP"), std::string::npos);
    // The line stays hidden from players after the match too (it was sent during play)...
    const ConnId again = h.connect();
    h.send(again, {{"type", "hello"}, {"token", h.last(cs[3], "welcome")["token"]}});
    EXPECT_EQ(h.bytes(again).find("SECRET-HELP"), std::string::npos);
    // ...while a spectator's line between matches reaches the players.
    EXPECT_EQ(h.chat(watcher, {{"text", "well played all"}})["type"], "ok");
    EXPECT_EQ(h.last(cs[0], "chat")["text"], "well played all");
}

// A late joiner gets the last 50 lines, oldest first, and nothing older.
TEST(Chat, LateJoinersGetTheLastFiftyLines) {
    Harness h;
    const std::vector<ConnId> cs = {h.connect(), h.connect(), h.connect(), h.connect()};
    const std::string tid = seat_four(h, cs);
    for (int i = 1; i <= 60; ++i) {
        if (i % kChatRateLines == 1) h.now += kChatRateWindowMs;  // a new window every 5 lines
        ASSERT_EQ(h.chat(cs[static_cast<std::size_t>(i % 4)], {{"text", "n" + std::to_string(i)}})["type"], "ok") << i;
    }
    const ConnId late = h.connect();
    h.sign_in(late, "Huda");
    h.send(late, {{"type", "join"}, {"table", tid}});
    const json lines = h.last(late, "chat_history")["lines"];
    ASSERT_EQ(lines.size(), kChatRecent);
    EXPECT_EQ(lines.front()["text"], "n11");
    EXPECT_EQ(lines.front()["seq"], 11);
    EXPECT_EQ(lines.back()["text"], "n60");
}

// The match's chat is kept in its record under "chat" (docs/record-format.md), which the
// records library (tarneeb replay) ignores: the record still replays to the same result.
TEST(Chat, TheMatchChatIsInItsRecordAndTheRecordStillReplays) {
    Harness h;
    const std::vector<ConnId> cs = {h.connect(), h.connect(), h.connect(), h.connect()};
    const std::string tid = seat_four(h, cs, {{"target", 5}, {"turn_seconds", 0}});
    const ConnId watcher = h.connect();
    h.sign_in(watcher, "Karim");
    h.send(watcher, {{"type", "join"}, {"table", tid}});
    EXPECT_EQ(h.chat(cs[0], {{"text", "not in the record: before the match"}})["type"], "ok");
    h.send(cs[0], {{"type", "start"}});
    EXPECT_EQ(h.chat(cs[0], {{"phrase", "good_luck"}})["type"], "ok");
    EXPECT_EQ(h.chat(watcher, {{"text", "<img src=x onerror=alert(1)>"}})["type"], "ok");
    EXPECT_EQ(h.chat(cs[3], {{"text", "\xD8\xA7\xD9\x84\xD9\x84\xD9\x87 \xD9\x8A\xD8\xB9\xD8\xB7\xD9\x8A\xD9\x83 \xD8\xA7\xD9\x84\xD8\xB9\xD8\xA7\xD9\x81\xD9\x8A\xD8\xA9"}})["type"], "ok");
    h.play(cs);
    ASSERT_EQ(h.last(cs[0], "table")["state"], "finished");
    std::string match_id;
    for (const auto& f : h.frames[cs[0]]) {
        const json j = json::parse(f);
        if (j["type"] == "table")
            for (const auto& e : j["events"])
                if (e["event"] == "match_over") match_id = e["record"];
    }
    ASSERT_FALSE(match_id.empty());
    const auto reply = h.get("/api/matches/" + match_id);
    ASSERT_EQ(reply->status, 200);
    const json stored = json::parse(reply->body);
    ASSERT_TRUE(stored.contains("chat"));
    const json& chat = stored["chat"];
    ASSERT_EQ(chat.size(), 3u);
    EXPECT_EQ(chat[0]["phrase"], "good_luck");
    EXPECT_EQ(chat[0]["from"], "Layla");
    EXPECT_EQ(chat[1]["text"], "<img src=x onerror=alert(1)>");
    EXPECT_EQ(chat[1]["channel"], "spectators");
    EXPECT_EQ(chat[2]["seat"], 3);
    // The record with its chat replays exactly as without it.
    json without = stored;
    without.erase("chat");
    without.erase("result");
    json with = stored;
    with.erase("result");
    const auto a = records::replay(with.dump()), b = records::replay(without.dump());
    EXPECT_FALSE(a.error);
    EXPECT_EQ(records::result_json(a), records::result_json(b));
    EXPECT_EQ(stored["result"]["status"], "won");
}

// ---- profiles -----------------------------------------------------------------------------

// A stored match's numbers (rec0020), private matches kept out of the lists, the leaderboard's
// registered flag: on both backends in storage_test.cpp
// (StorageTest.ProfileNumbersOfAStoredMatchAndPrivateMatchesKeptOutOfTheLists).

TEST(Profiles, OverHttpWithUnknownAndDecomposedNames) {
    Harness h;
    const std::vector<ConnId> cs = {h.connect(), h.connect(), h.connect(), h.connect()};
    seat_four(h, cs, {{"target", 5}, {"turn_seconds", 0}});
    h.send(cs[0], {{"type", "start"}});
    h.play(cs);
    ASSERT_EQ(h.last(cs[0], "table")["state"], "finished");
    const auto r = h.get("/api/players/Layla");
    ASSERT_EQ(r->status, 200);
    const json p = json::parse(r->body);
    EXPECT_EQ(p["name"], "Layla");
    EXPECT_EQ(p["matches"], 1);
    EXPECT_EQ(p["recent_matches"].size(), 1u);
    EXPECT_EQ(p["rating_history"].size(), 1u);
    EXPECT_EQ(p["rating_history"][0]["rating"], p["rating"]);
    // Bids and contracts add up over the four players as in the match's own result.
    const json result = json::parse(h.get("/api/matches/" + p["recent_matches"][0]["id"].get<std::string>())->body)["result"];
    int contracts = 0;
    for (const auto& d : result["deals"]) contracts += d["made"].is_boolean() ? 1 : 0;
    int counted = 0;
    for (const char* n : {"Layla", "Omar", "Rana", "Sami"})
        counted += json::parse(h.get(std::string("/api/players/") + n)->body)["contracts"]["bid"].get<int>();
    EXPECT_EQ(counted, contracts);
    EXPECT_EQ(h.get("/api/players/Nobody")->status, 404);
    EXPECT_EQ(json::parse(h.get("/api/players/Nobody")->body)["error"], "no_such_player");
    // The existing match list is still its own endpoint.
    EXPECT_EQ(json::parse(h.get("/api/players/Layla/matches")->body)["matches"].size(), 1u);
}

}  // namespace
}  // namespace tarneeb::server
