// `tarneeb play` and `tarneeb simulate` through the real executable (TARNEEB_BINARY).
#include "../cli_util.hpp"
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

using tarneeb::test::Result;
using tarneeb::test::run;

fs::path temp_dir(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("tarneeb_bots_test_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

/// `s` with its ASCII digits written as Eastern Arabic digits ("10H" -> "١٠H").
std::string eastern_digits(const std::string& s) {
    static constexpr const char* kDigits[10] = {"٠", "١", "٢", "٣", "٤", "٥", "٦", "٧", "٨", "٩"};
    std::string t;
    for (char c : s) t += c >= '0' && c <= '9' ? std::string(kDigits[c - '0']) : std::string(1, c);
    return t;
}

/// Input that finishes any match: each block offers a bid, a pass, a trump and every card,
/// so whatever the prompt, one of the next lines is accepted (the others are rejected and
/// change nothing). `arabic`: typed as an Arabic speaker would (٧, باس, تلميح, ؟, ١٠H).
std::string whole_match_input(int blocks, bool arabic = false) {
    std::string block = arabic ? "٧\nباس\ns\nتلميح\n؟\n" : "7\npass\ns\nhint\n?\n";
    for (const char* s : {"S", "H", "D", "C"})
        for (const char* r : {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"})
            block += (arabic ? eastern_digits(r) : std::string(r)) + s + "\n";
    std::string all;
    for (int i = 0; i < blocks; ++i) all += block;
    return all;
}

nlohmann::json replay_file(const fs::path& f, int& status) {
    const Result r = run("replay " + f.string() + " 2>/dev/null");
    status = r.status;
    return nlohmann::json::parse(r.out);
}

void play_whole_match(const std::string& rules) {
    const fs::path d = temp_dir("play_" + rules);
    {
        std::ofstream in(d / "input.txt");
        in << whole_match_input(4000);
    }
    const fs::path record = d / "match.json";
    const Result r = run("play --rules " + rules + " --seat 1 --seed 7 --record " + record.string() + " < " +
                         (d / "input.txt").string() + " 2>&1");
    EXPECT_EQ(r.status, 0) << r.out.substr(0, 2000);
    EXPECT_NE(r.out.find("Match over"), std::string::npos) << r.out.substr(r.out.size() > 3000 ? r.out.size() - 3000 : 0);
    EXPECT_NE(r.out.find("Auction:"), std::string::npos);
    EXPECT_NE(r.out.find("Contract:"), std::string::npos);
    EXPECT_NE(r.out.find("Hint:"), std::string::npos);
    EXPECT_NE(r.out.find("Legal:"), std::string::npos);
    EXPECT_NE(r.out.find("Partner:"), std::string::npos);
    EXPECT_NE(r.out.find("You do not hold"), std::string::npos);
    EXPECT_NE(r.out.find("You must follow suit"), std::string::npos);
    EXPECT_NE(r.out.find("Not a suit"), std::string::npos);
    EXPECT_EQ(r.out.find("\x1b["), std::string::npos) << "no colour when output is not a terminal";
    int status = -1;
    const auto result = replay_file(record, status);
    EXPECT_EQ(status, 0);
    EXPECT_TRUE(result["status"] == "won" || result["status"] == "drawn" || result["status"] == "closed") << result["status"];
    fs::remove_all(d);
}

TEST(Play, WholeMatchThroughAPipeLevantine) { play_whole_match("levantine"); }
TEST(Play, WholeMatchThroughAPipeClassic) { play_whole_match("classic"); }

TEST(Play, WrongInputGivesAReasonAndTheSamePrompt) {
    const fs::path d = temp_dir("wrong");
    const fs::path record = d / "r.json";
    // Seat 1 speaks first when seat 0 deals.
    const Result r = run("play --seat 1 --seed 3 --record " + record.string() + " <<'EOF'\nQS\n99\nfoo\nquit\nEOF\n");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("Not a call"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Bids go 7-13"), std::string::npos) << r.out;
    // The same prompt four times (three wrong answers, then quit).
    std::size_t count = 0;
    for (std::size_t p = r.out.find("Your call"); p != std::string::npos; p = r.out.find("Your call", p + 1)) ++count;
    EXPECT_EQ(count, 4u) << r.out;
    // Quit still writes the record so far: legal and in progress.
    int status = -1;
    const auto result = replay_file(record, status);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(result["status"], "in_progress");
    fs::remove_all(d);
}

TEST(Play, EndOfInputEndsCleanly) {
    const Result r = run("play --seed 5 --bots random --target 5 </dev/null");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("Game ended"), std::string::npos);
}

TEST(Play, ArabicInterface) {
    const Result r = run("play --seed 5 --lang ar <<'EOF'\nzz\nquit\nEOF\n");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("أوراقك"), std::string::npos);
    EXPECT_NE(r.out.find("انتهت اللعبة"), std::string::npos);
    EXPECT_EQ(run("play --lang fr </dev/null 2>/dev/null").status, 2);
}

/// Each suit symbol outside an LRI (U+2066) ... PDI (U+2069) isolate, and whether the
/// isolates are balanced.
std::pair<int, bool> suits_outside_isolates(const std::string& out) {
    const std::string lri = "\u2066", pdi = "\u2069";
    int depth = 0, outside = 0;
    bool balanced = true;
    for (std::size_t i = 0; i < out.size();) {
        if (out.compare(i, lri.size(), lri) == 0) {
            ++depth;
            i += lri.size();
            continue;
        }
        if (out.compare(i, pdi.size(), pdi) == 0) {
            balanced &= --depth >= 0;
            i += pdi.size();
            continue;
        }
        if (out[i] == '\n') balanced &= depth == 0;  // an isolate never spans lines
        for (const char* suit : {"\u2663", "\u2666", "\u2665", "\u2660"})
            if (out.compare(i, std::string(suit).size(), suit) == 0 && depth == 0) ++outside;
        ++i;
    }
    return {outside, balanced && depth == 0};
}

TEST(Play, ArabicOutputIsolatesCardRunsEnglishHasNoIsolates) {
    // A whole match through a pipe in Arabic: every card, hand, trump and signed score is in
    // an LRI...PDI isolate, so a bidi-aware terminal does not move a suit next to another run.
    const fs::path d = temp_dir("play_ar");
    {
        std::ofstream in(d / "input.txt");
        in << whole_match_input(4000);
    }
    const Result ar = run("play --seat 1 --seed 7 --lang ar --target 11 < " + (d / "input.txt").string() + " 2>&1");
    fs::remove_all(d);
    EXPECT_EQ(ar.status, 0);
    EXPECT_NE(ar.out.find("انتهت المباراة"), std::string::npos) << "the match was played to its end";
    EXPECT_NE(ar.out.find("\u2066"), std::string::npos);
    const auto [outside, balanced] = suits_outside_isolates(ar.out);
    EXPECT_EQ(outside, 0) << ar.out;
    EXPECT_TRUE(balanced);
    const Result en = run("play --seed 5 --bots random --target 5 <<'EOF'\n?\nquit\nEOF\n");
    EXPECT_EQ(en.out.find("\u2066"), std::string::npos);
    EXPECT_EQ(en.out.find("\u2069"), std::string::npos);
}

TEST(Play, ArabicAnswers) {
    // Seat 1 speaks first when seat 0 deals; with seed 3 the right bids 8 over our 7, we pass,
    // the right names diamonds and leads A♦, and we follow with 10♦.
    const Result ar = run("play --seat 1 --seed 3 --lang ar <<'EOF'\n؟\nتلميح\n٧\nباس\n١٠d\nخروج\nEOF\n");
    EXPECT_EQ(ar.status, 0);
    EXPECT_NE(ar.out.find("المسموح: باس"), std::string::npos) << ar.out;
    EXPECT_NE(ar.out.find("اقتراح:"), std::string::npos) << ar.out;
    EXPECT_NE(ar.out.find("أنت: تطلب \u2066٧\u2069"), std::string::npos) << ar.out;
    EXPECT_NE(ar.out.find("أنت: باس"), std::string::npos) << ar.out;
    EXPECT_NE(ar.out.find("أنت: \u206610\u2666\u2069"), std::string::npos) << ar.out;
    EXPECT_NE(ar.out.find("انتهت اللعبة"), std::string::npos) << ar.out;
    // The same answers are understood in English mode.
    const Result en = run("play --seat 1 --seed 3 <<'EOF'\n٧\nباس\n١٠d\nquit\nEOF\n");
    EXPECT_NE(en.out.find("You: bid 7\n"), std::string::npos) << en.out;
    EXPECT_NE(en.out.find("You: pass\n"), std::string::npos) << en.out;
    EXPECT_NE(en.out.find("You: 10\u2666\n"), std::string::npos) << en.out;
}

TEST(Play, ArabicSuitNamesEasternDigitsAndAnUnmirroredTrick) {
    // We speak first and bid 13 (nobody can go higher), name trump by its Levantine name, and
    // the trick diagram is laid out left to right (a LEFT-TO-RIGHT MARK starts each line).
    const Result ar = run("play --seat 1 --seed 3 --lang ar <<'EOF'\n١٣\nكبة\nخروج\nEOF\n");
    EXPECT_EQ(ar.status, 0);
    EXPECT_NE(ar.out.find("أنت: تطلب \u2066١٣\u2069"), std::string::npos) << ar.out;
    EXPECT_NE(ar.out.find("أنت: الحكم \u2066\u2665\u2069"), std::string::npos) << ar.out;
    EXPECT_NE(ar.out.find("طلبك (٧-١٣"), std::string::npos) << ar.out;
    EXPECT_NE(ar.out.find("\u200e                الشريك: "), std::string::npos) << ar.out;
    EXPECT_NE(ar.out.find("\u200e  اليسار: "), std::string::npos) << ar.out;
    // Numbers are Eastern digits (scores, the target, tricks); the card notation stays Latin.
    EXPECT_NE(ar.out.find("الهدف \u2066٣١\u2069"), std::string::npos) << ar.out;
    // The suit names are understood in English mode too, alone or after a rank.
    const Result en = run("play --seat 1 --seed 3 <<'EOF'\n13\nبستوني\nquit\nEOF\n");
    EXPECT_NE(en.out.find("You: trump \u2660\n"), std::string::npos) << en.out;
    EXPECT_EQ(en.out.find("\u200e"), std::string::npos) << "no marks in English";
    const Result card = run("play --seat 1 --seed 3 <<'EOF'\n٧\nباس\n١٠ ديناري\nquit\nEOF\n");
    EXPECT_NE(card.out.find("You: 10\u2666\n"), std::string::npos) << card.out;
}

/// The lines of `out` with a Latin letter outside an LRI (U+2066) ... PDI (U+2069) isolate
/// (isolates hold the card notation, numbers and command lines). A prompt's echoed answer,
/// after ")> ", is the person's own text and is not looked at.
std::vector<std::string> latin_outside_isolates(const std::string& out) {
    const std::string lri = "\u2066", pdi = "\u2069";
    std::vector<std::string> lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        const std::string shown = line.substr(0, line.find(")> "));
        int depth = 0;
        bool latin = false;
        for (std::size_t i = 0; i < shown.size(); ++i) {
            if (shown.compare(i, lri.size(), lri) == 0) ++depth;
            else if (shown.compare(i, pdi.size(), pdi) == 0) --depth;
            else if (depth == 0 && ((shown[i] >= 'a' && shown[i] <= 'z') || (shown[i] >= 'A' && shown[i] <= 'Z'))) latin = true;
        }
        if (latin) lines.push_back(line);
    }
    return lines;
}

TEST(Play, WholeMatchInArabicReadsAsArabic) {
    // A whole match answered in Arabic (٧, باس, تلميح, ؟, ١٠H): the words are the issue's
    // (لفة for a trick, حكم for trump), verbs agree with their subject, and no English word
    // is printed outside the card notation.
    const fs::path d = temp_dir("play_ar_input");
    {
        std::ofstream in(d / "input.txt");
        in << whole_match_input(4000, true);
    }
    const fs::path record = d / "match.json";
    // Seed 1: a match in which each team declares and the person wins a trick, so that every
    // word below is printed. The bots' bidding decides that, so a change to it may need another
    // seed (with the bidding refitted on issue 29's card play, seed 7 is a match of two rounds,
    // both declared by the opponents).
    const Result r = run("play --seat 1 --seed 1 --lang ar --target 11 --record " + record.string() + " < " +
                         (d / "input.txt").string() + " 2>&1");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("انتهت المباراة"), std::string::npos) << "the match was played to its end";
    int status = -1;
    const auto result = replay_file(record, status);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(result["ok"], true);
    fs::remove_all(d);
    for (const char* word : {"نحتاج", "هم يحتاجون", "تأخذ اللفة", "اللفة", "اللفات", "الحكم", "تطلب", "اقتراح:", "المسموح:"})
        EXPECT_NE(r.out.find(word), std::string::npos) << word;
    for (const char* wrong : {"نحن يحتاجون", "أنت يأخذ", "أنت: يطلب", "الأكلة", "الأكلات", "الطرنيب", "pass", "hint"})
        EXPECT_EQ(r.out.find(wrong), std::string::npos) << wrong;
    const auto mixed = latin_outside_isolates(r.out);
    EXPECT_TRUE(mixed.empty()) << mixed.size() << " lines, the first: " << (mixed.empty() ? "" : mixed.front());
}

TEST(Play, EnglishVerbsAgreeAndNoArabic) {
    const fs::path d = temp_dir("play_en");
    {
        std::ofstream in(d / "input.txt");
        in << whole_match_input(4000);
    }
    // Seed 1 for the reason given in WholeMatchInArabicReadsAsArabic.
    const Result r = run("play --seat 1 --seed 1 --target 11 < " + (d / "input.txt").string() + " 2>&1");
    fs::remove_all(d);
    EXPECT_EQ(r.status, 0);
    for (const char* right : {"You win the trick", "Right wins the trick", "You: bid ", "we need", "they need"})
        EXPECT_NE(r.out.find(right), std::string::npos) << right;
    for (const char* wrong : {"You wins", "You: bids", "us need", "them need"})
        EXPECT_EQ(r.out.find(wrong), std::string::npos) << wrong;
    // No Arabic letter: UTF-8 lead bytes 0xD8-0xDB start U+0600-U+06FF.
    const auto arabic = std::find_if(r.out.begin(), r.out.end(), [](char c) {
        const auto b = static_cast<unsigned char>(c);
        return b >= 0xD8 && b <= 0xDB;
    });
    EXPECT_EQ(arabic, r.out.end()) << r.out.substr(static_cast<std::size_t>(arabic - r.out.begin()), 200);
}

TEST(Play, UsageErrors) {
    EXPECT_EQ(run("play --bots nobody </dev/null 2>/dev/null").status, 2);
    EXPECT_EQ(run("play --rules chess </dev/null 2>/dev/null").status, 2);
    EXPECT_EQ(run("play --seat 4 </dev/null 2>/dev/null").status, 2);
}

TEST(Simulate, SameSummaryWhateverTheThreads) {
    const Result a = run("simulate --matches 24 --team1 heuristic --seed 11 --threads 1");
    const Result b = run("simulate --matches 24 --team1 heuristic --seed 11 --threads 2");
    const Result c = run("simulate --matches 24 --team1 heuristic --seed 11 --threads 5");
    EXPECT_EQ(a.status, 0);
    EXPECT_EQ(a.out, b.out);
    EXPECT_EQ(a.out, c.out);
    const Result d1 = run("simulate --deals 150 --duplicate --rules classic --seed 4 --threads 1");
    const Result d2 = run("simulate --deals 150 --duplicate --rules classic --seed 4 --threads 3");
    EXPECT_EQ(d1.out, d2.out);
    const Result other = run("simulate --matches 24 --team1 heuristic --seed 12");
    EXPECT_NE(a.out, other.out);
}

TEST(Simulate, SummaryHasTheDocumentedKeys) {
    const auto m = nlohmann::json::parse(run("simulate --matches 5 --seed 2").out);
    for (const char* key : {"team0", "team1", "matches", "team0_wins", "team1_wins", "draws", "closed",
                            "contracts_made_pct", "avg_bid", "points_per_deal"})
        EXPECT_TRUE(m.contains(key)) << key;
    EXPECT_EQ(m["team0_wins"].get<int>() + m["team1_wins"].get<int>() + m["draws"].get<int>() + m["closed"].get<int>(), 5);
    const auto d = nlohmann::json::parse(run("simulate --deals 5 --duplicate --seed 2").out);
    EXPECT_TRUE(d.contains("deals"));
    EXPECT_TRUE(d["duplicate"].contains("mean_diff"));
    EXPECT_EQ(d["duplicate"]["ci95"].size(), 2u);
    EXPECT_EQ(d["points_per_deal"].size(), 2u);
}

TEST(Simulate, Ci95IsNullForOneDealAndStudentsTForFew) {
    const auto one = nlohmann::json::parse(run("simulate --deals 1 --duplicate --seed 2").out);
    EXPECT_TRUE(one["duplicate"]["ci95"].is_null()) << one.dump();
    EXPECT_TRUE(one["duplicate"]["mean_diff"].is_number());
    // Few deals: an interval around the mean (width >= 0), from Student's t.
    const auto few = nlohmann::json::parse(run("simulate --deals 4 --duplicate --team1 random --seed 2").out);
    const auto& ci = few["duplicate"]["ci95"];
    ASSERT_EQ(ci.size(), 2u) << few.dump();
    EXPECT_LE(ci[0].get<double>(), few["duplicate"]["mean_diff"].get<double>());
    EXPECT_GE(ci[1].get<double>(), few["duplicate"]["mean_diff"].get<double>());
}

TEST(Simulate, TimingReportsEachTeamsDecisionsMedianAndP99) {
    // The plumbing of --timing only: each team's decisions counted, a median and a p99 from its
    // histogram. How long decisions take depends on the machine; that the histogram reads past
    // 1 ms (it once stopped there) is tests/core/stats_test.cpp's.
    const auto d = nlohmann::json::parse(run("simulate --deals 1 --duplicate --team0 pimc --team1 heuristic --seed 3 --timing").out);
    ASSERT_TRUE(d.contains("decision_time")) << d.dump();
    for (const char* team : {"team0", "team1"}) {
        const auto& t = d["decision_time"][team];
        ASSERT_TRUE(t.is_object()) << team << ": " << d.dump();
        EXPECT_GT(t["decisions"].get<std::uint64_t>(), 0u) << team;
        EXPECT_GT(t["median_us"].get<double>(), 0.0) << team << ": " << t.dump();
        // test-wait: two quantiles of one histogram in order, not a bound on a time.
        EXPECT_LE(t["median_us"].get<double>(), t["p99_us"].get<double>()) << team << ": " << t.dump();
    }
    // Without --timing there is none.
    EXPECT_FALSE(nlohmann::json::parse(run("simulate --deals 1 --duplicate --seed 3").out).contains("decision_time"));
}

TEST(Simulate, HeuristicBeatsRandomInDuplicate) {
    for (const char* rules : {"levantine", "classic"}) {
        const auto d = nlohmann::json::parse(
            run(std::string("simulate --deals 400 --duplicate --team0 heuristic --team1 random --threads 2 --rules ") + rules).out);
        EXPECT_GT(d["duplicate"]["ci95"][0].get<double>(), 0.0) << d.dump();
        EXPECT_EQ(d["illegal_actions"], 0);
    }
}

TEST(Simulate, RecordsReplayCleanly) {
    const fs::path d = temp_dir("records");
    ASSERT_EQ(run("simulate --matches 3 --team1 heuristic --seed 9 --records " + d.string() + " >/dev/null").status, 0);
    ASSERT_EQ(run("simulate --deals 3 --duplicate --seed 9 --records " + (d / "dup").string() + " >/dev/null").status, 0);
    int files = 0;
    for (const auto& e : fs::recursive_directory_iterator(d)) {
        if (e.path().extension() != ".json") continue;
        ++files;
        int status = -1;
        const auto result = replay_file(e.path(), status);
        EXPECT_EQ(status, 0) << e.path();
        EXPECT_EQ(result["ok"], true) << e.path();
    }
    EXPECT_EQ(files, 3 + 6);
    fs::remove_all(d);
}

TEST(Simulate, UsageErrors) {
    EXPECT_EQ(run("simulate --team0 nobody --matches 1 2>/dev/null").status, 2);
    EXPECT_EQ(run("simulate --matches 1 --deals 1 --duplicate 2>/dev/null").status, 2);
    EXPECT_EQ(run("simulate --deals 3 2>/dev/null").status, 2);
    EXPECT_EQ(run("simulate --matches 1 --rules chess 2>/dev/null").status, 2);
}

}  // namespace
