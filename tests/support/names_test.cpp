// Display names in any script (include/tarneeb/support/names.hpp; security issue #11).
#include <string>

#include <gtest/gtest.h>

#include "tarneeb/support/names.hpp"

namespace tarneeb::server {
namespace {

std::string accepted(std::string_view text) {
    const NameResult r = normalize_name(text);
    EXPECT_TRUE(r.name) << "refused: " << text << " (" << describe(r.problem) << ")";
    return r.name ? r.name->text : std::string();
}

NameProblem refused(std::string_view text, const std::vector<std::string>& reserved = {}) {
    const NameResult r = normalize_name(text, reserved);
    EXPECT_FALSE(r.name) << "accepted: " << text;
    return r.problem;
}

TEST(Names, AcceptsNamesInAnyScript) {
    EXPECT_EQ(accepted("Layla"), "Layla");
    EXPECT_EQ(accepted("ليلى"), "ليلى");
    EXPECT_EQ(accepted("Zoë"), "Zoë");
    EXPECT_EQ(accepted("Сергей"), "Сергей");
    EXPECT_EQ(accepted("Αθηνά"), "Αθηνά");
    EXPECT_EQ(accepted("李小龍"), "李小龍");
    EXPECT_EQ(accepted("יעל"), "יעל");
    EXPECT_EQ(accepted("अनु"), "अनु");             // Devanagari with a spacing vowel sign
    EXPECT_EQ(accepted("مُحَمَّد"), "مُحَمَّد");  // Arabic with harakat (combining marks)
    EXPECT_EQ(accepted("Abu Omar_2.0-x"), "Abu Omar_2.0-x");
    EXPECT_EQ(accepted("لاعب ٧"), "لاعب ٧");       // Arabic-Indic digit
}

TEST(Names, NfcAndNfdAreOneName) {
    const std::string nfc = "Zo\xC3\xAB";        // U+00EB
    const std::string nfd = "Zoe\xCC\x88";       // e + U+0308
    EXPECT_EQ(accepted(nfd), nfc);
    EXPECT_EQ(name_key(nfd), name_key(nfc));
}

TEST(Names, ConfusablesAndCaseShareAKey) {
    const std::string layla = name_key("Layla");
    EXPECT_EQ(name_key("LayIa"), layla);  // capital i
    EXPECT_EQ(name_key("Lay1a"), layla);  // digit one
    EXPECT_EQ(name_key("layla"), layla);
    EXPECT_EQ(name_key("LAYLA"), layla);
    EXPECT_EQ(name_key("L\xD0\xB0yla"), layla);  // Cyrillic а (as a key; refused as a name)
    EXPECT_EQ(name_key("lila"), name_key("LILA"));
    EXPECT_EQ(name_key("maya"), name_key("MAYA"));
    EXPECT_EQ(name_key("rnaya"), name_key("maya"));
    EXPECT_NE(name_key("Layla"), name_key("Laila"));
    EXPECT_NE(name_key("ليلى"), name_key("ليلة"));
    // Whole-script look-alike: all-Cyrillic «Рара» has Latin `Papa`'s key.
    EXPECT_EQ(name_key(accepted("\xD0\xA0\xD0\xB0\xD1\x80\xD0\xB0")), name_key("Papa"));
}

TEST(Names, RefusesMixedScriptsAndNumberSystems) {
    EXPECT_EQ(refused("L\xD0\xB0yla"), NameProblem::mixed_script);    // Latin + Cyrillic а
    EXPECT_EQ(refused("\xCE\xA1" "aul"), NameProblem::mixed_script);     // Greek Ρ + Latin
    EXPECT_EQ(refused("Layla\xD9\xA7" "7"), NameProblem::mixed_script);  // Arabic-Indic 7 + ASCII 7
}

TEST(Names, RefusesControlBidiAndInvisibleCharacters) {
    EXPECT_EQ(refused("Lay\xE2\x80\xAEla"), NameProblem::bad_character);   // RLO U+202E
    EXPECT_EQ(refused("Lay\xE2\x81\xA6la"), NameProblem::bad_character);   // LRI U+2066
    EXPECT_EQ(refused("Lay\xE2\x80\x8Dla"), NameProblem::bad_character);   // ZWJ U+200D
    EXPECT_EQ(refused("Lay\xE2\x80\x8Bla"), NameProblem::bad_character);   // ZWSP U+200B
    EXPECT_EQ(refused("Lay\xE2\x80\x8Ela"), NameProblem::bad_character);   // LRM U+200E
    EXPECT_EQ(refused("Lay\tla"), NameProblem::bad_character);
    EXPECT_EQ(refused(std::string("Lay\0la", 6)), NameProblem::bad_character);
    EXPECT_EQ(refused("Lay\x7Fla"), NameProblem::bad_character);
    EXPECT_EQ(refused("Lay\xC2\xA0la"), NameProblem::bad_character);       // no-break space
    EXPECT_EQ(refused("Lay\xE3\x80\x80la"), NameProblem::bad_character);   // ideographic space
    EXPECT_EQ(refused("Layla\xE2\x99\xA5"), NameProblem::bad_character);   // ♥
    EXPECT_EQ(refused("<Layla>"), NameProblem::bad_character);
    EXPECT_EQ(refused("Lay\xEF\xBB\xBFla"), NameProblem::bad_character);   // BOM
}

TEST(Names, RefusesMalformedUtf8) {
    EXPECT_EQ(refused("Lay\xFFla"), NameProblem::not_utf8);
    EXPECT_EQ(refused("Lay\xC0\xAFla"), NameProblem::not_utf8);            // overlong '/'
    EXPECT_EQ(refused("Lay\xED\xA0\x80la"), NameProblem::not_utf8);        // a surrogate
    EXPECT_EQ(refused("Layla\xD9"), NameProblem::not_utf8);                // truncated
}

TEST(Names, RefusesCombiningMarkFloods) {
    std::string zalgo = "Z";
    for (int i = 0; i < 40; ++i) zalgo += "\xCC\x81";  // U+0301
    EXPECT_EQ(refused(zalgo), NameProblem::bad_marks);
    // Four marks on one letter (overlays, which NFC cannot fold into the letter).
    EXPECT_EQ(refused("b\xCC\xB4\xCC\xB5\xCC\xB6\xCC\xB7"), NameProblem::bad_marks);
    EXPECT_EQ(refused("\xCC\x81" "abc"), NameProblem::bad_marks);                     // mark with no base
    EXPECT_EQ(refused("ab \xCC\x81" "c"), NameProblem::bad_marks);                    // mark on a space
    // Three marks on one base are fine (Arabic shadda + vowel, Hebrew niqqud...).
    EXPECT_FALSE(accepted("b\xCC\xB4\xCC\xB5\xCC\xB6").empty());
}

TEST(Names, WidthLimitIsInColumnsNotBytes) {
    EXPECT_FALSE(accepted(std::string(24, 'a')).empty());
    EXPECT_EQ(refused(std::string(25, 'a')), NameProblem::too_long);
    // 24 Arabic letters are 48 bytes, and still 24 columns.
    std::string arabic;
    for (int i = 0; i < 24; ++i) arabic += "\xD9\x84";  // ل
    EXPECT_FALSE(accepted(arabic).empty());
    EXPECT_EQ(refused(arabic + "\xD9\x84"), NameProblem::too_long);
    // CJK characters are two columns wide: 12 fit, 13 do not.
    std::string han;
    for (int i = 0; i < 12; ++i) han += "\xE6\x9D\x8E";  // 李
    EXPECT_FALSE(accepted(han).empty());
    EXPECT_EQ(refused(han + "\xE6\x9D\x8E"), NameProblem::too_long);
    // Marks take no column.
    std::string marked;
    for (int i = 0; i < 24; ++i) marked += "\xD9\x84\xD9\x8E";  // ل + fatha
    EXPECT_FALSE(accepted(marked).empty());
    EXPECT_EQ(refused(std::string(300, 'a')), NameProblem::too_long);
}

TEST(Names, SpacesAndPunctuation) {
    EXPECT_EQ(refused(""), NameProblem::empty);
    EXPECT_EQ(refused("..."), NameProblem::empty);
    EXPECT_EQ(refused(" Layla"), NameProblem::bad_spacing);
    EXPECT_EQ(refused("Layla "), NameProblem::bad_spacing);
    EXPECT_EQ(refused("Lay  la"), NameProblem::bad_spacing);
    EXPECT_EQ(refused("Lay/la"), NameProblem::bad_character);
    EXPECT_FALSE(accepted("a.b_c-d e").empty());
}

TEST(Names, BotNamesAreReservedBySkeleton) {
    const std::vector<std::string> bots{"random", "heuristic", "pimc"};
    EXPECT_EQ(refused("heuristic", bots), NameProblem::reserved);
    EXPECT_EQ(refused("Heuristic", bots), NameProblem::reserved);
    EXPECT_EQ(refused("PIMC", bots), NameProblem::reserved);
    EXPECT_EQ(refused("pirnc", bots), NameProblem::reserved);  // r n looks like m
    EXPECT_EQ(refused("rand0m", bots), NameProblem::reserved);
    EXPECT_TRUE(normalize_name("heuristics", bots).name);
    // The names bots are shown under at a table ("heuristic 2": kind and seat 1..4) too.
    EXPECT_EQ(refused("heuristic 2", bots), NameProblem::reserved);
    EXPECT_EQ(refused("Pimc 4", bots), NameProblem::reserved);
    EXPECT_EQ(refused("rand0m 1", bots), NameProblem::reserved);
    EXPECT_TRUE(normalize_name("heuristic 5", bots).name);
    EXPECT_TRUE(normalize_name("heuristic 12", bots).name);
}

}  // namespace
}  // namespace tarneeb::server
