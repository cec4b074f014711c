// tarneeb play's words (cmd_play.cpp): the interface's few words in English and Arabic, and
// how an answer typed on the terminal is read (Eastern digits, Arabic words and suit names).
#pragma once

#include <string>

namespace tarneeb::cli {

/// The few words of the interface, in English or Arabic. A line is in one language: in Arabic
/// the card notation, numbers and the command line are the only Latin text, each in an LRI...PDI
/// isolate (Game::ltr in cmd_play.cpp, or \u2066...\u2069 inside the Arabic strings of play_words.cpp). A verb whose subject
/// is the person (you) or the person's team (we) has its own form.
struct Words {
    const char* you;
    const char* right;
    const char* partner;
    const char* left;
    const char* us;
    const char* them;
    const char* round;
    const char* dealer;
    const char* your_hand;
    const char* auction;
    const char* pass;
    const char* bids;
    const char* you_bid;        ///< "bids" when the person bids
    const char* contract;
    const char* trump;
    const char* tricks;
    const char* trick;
    const char* we_need;        ///< followed by the contract
    const char* they_need;      ///< followed by the contract
    const char* rounds;
    const char* score;
    const char* target;
    const char* wins_trick;     ///< after the winner's name
    const char* you_win_trick;  ///< the whole phrase when the person wins
    const char* comma;
    const char* semicolon;
    const char* call_prompt;
    const char* trump_prompt;
    const char* card_prompt;
    const char* made;
    const char* set;
    const char* passed_out;
    const char* match_over;
    const char* winner;
    const char* draw;
    const char* closed;
    const char* goodbye;
    const char* legal;
    const char* hint;
    const char* more_help;      ///< after the legal moves
    // One-line reasons for a wrong answer.
    const char* e_empty;
    const char* e_not_call;     ///< followed by "min-max"
    const char* e_bid_range;    ///< followed by "min-max"
    const char* e_too_low;      ///< followed by the standing bid
    const char* e_not_suit;
    const char* e_not_card;
    const char* e_not_held;     ///< followed by the card
    const char* e_follow;       ///< followed by the suit led
    const char* e_not_now;      ///< followed by the error code
};

/// The words of `tarneeb play --lang en` and `--lang ar`.
extern const Words kEnglish;
extern const Words kArabic;

/// `s` without leading and trailing blanks, ASCII letters lowered.
std::string lower_trim(std::string s);

/// An answer as the prompts read it, whatever --lang says: lower_trim, Eastern Arabic digits
/// (٠-٩, U+0660-U+0669, and the Persian forms ۰-۹, U+06F0-U+06F9) as ASCII digits in bids and
/// card ranks ("١٠h" is 10h), «؟» as "?", the Arabic words «باس» (pass), «تلميح» (hint)
/// and «خروج» (quit) as the English ones, and the Levantine suit names as the browser client
/// writes them — «بستوني» spades, «كبة» hearts, «ديناري» diamonds, «سباتي» clubs (and the
/// spellings «كبّة», «دينار», «اسباتي») — as their letters, alone (a trump) or after a rank
/// ("١٠ كبة" is 10h).
std::string normalise_answer(const std::string& line);

}  // namespace tarneeb::cli
