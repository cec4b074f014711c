// Table chat: text checks (ICU), quick phrases, the rate limit and a table's log (chat.hpp).
#include "tarneeb/server/chat.hpp"

#include <algorithm>
#include <stdexcept>

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/ustring.h>

namespace tarneeb::server {

std::string_view to_string(ChatChannel c) { return c == ChatChannel::players ? "players" : "spectators"; }

bool visible_to(const ChatLine& line, bool player) {
    // Spectators read everything; players never read a spectator's line sent during play.
    return !player || line.channel == ChatChannel::players || !line.during_play;
}

std::string_view describe(ChatProblem p) {
    switch (p) {
        case ChatProblem::none: return "ok";
        case ChatProblem::empty: return "the line is empty";
        case ChatProblem::too_long: return "a line has at most 200 characters";
        case ChatProblem::not_utf8: return "the line is not UTF-8";
        case ChatProblem::control: return "control and bidirectional override characters are not allowed";
    }
    return "bad line";
}

namespace {
/// U+202A–U+202E (embeddings, overrides, PDF) and U+2066–U+2069 (isolates, PDI).
bool bidi_control(UChar32 c) { return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069); }
}  // namespace

ChatText normalize_chat(std::string_view utf8) {
    if (utf8.size() > kChatMaxBytes) return {std::nullopt, ChatProblem::too_long};
    // Strict decoding: u_strFromUTF8 refuses ill-formed input (overlong forms, surrogates...).
    UErrorCode status = U_ZERO_ERROR;
    UChar buf[kChatMaxBytes + 1];
    std::int32_t len = 0;
    u_strFromUTF8(buf, static_cast<std::int32_t>(std::size(buf)), &len, utf8.data(), static_cast<std::int32_t>(utf8.size()),
                  &status);
    if (U_FAILURE(status)) return {std::nullopt, ChatProblem::not_utf8};
    const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
    if (U_FAILURE(status)) throw std::runtime_error(std::string("ICU NFC: ") + u_errorName(status));
    const icu::UnicodeString text = nfc->normalize(icu::UnicodeString(buf, len), status);
    if (U_FAILURE(status)) throw std::runtime_error(std::string("ICU NFC: ") + u_errorName(status));
    int code_points = 0;
    bool visible = false;
    for (std::int32_t i = 0; i < text.length(); i = text.moveIndex32(i, 1)) {
        const UChar32 c = text.char32At(i);
        if (++code_points > kChatMaxCodePoints) return {std::nullopt, ChatProblem::too_long};
        if (u_charType(c) == U_CONTROL_CHAR || bidi_control(c)) return {std::nullopt, ChatProblem::control};
        visible = visible || !u_isUWhiteSpace(c);
    }
    if (!visible) return {std::nullopt, ChatProblem::empty};
    std::string out;
    text.toUTF8String(out);
    return {std::move(out), ChatProblem::none};
}

const std::vector<std::string_view>& quick_phrases() {
    static const std::vector<std::string_view> ids = {"yalla", "afye", "well_played", "good_luck",
                                                      "thanks", "sorry", "hurry", "one_more"};
    return ids;
}

bool is_quick_phrase(std::string_view id) {
    const auto& ids = quick_phrases();
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

bool ChatRate::allow(std::int64_t now) {
    while (!sent_.empty() && now - sent_.front() >= kChatRateWindowMs) sent_.pop_front();
    if (static_cast<int>(sent_.size()) >= kChatRateLines) return false;
    sent_.push_back(now);
    return true;
}

const ChatLine& ChatLog::add(ChatLine line) {
    line.seq = ++seq_;
    if (line.during_play) {
        // A line of a newer match than the kept ones: that match's record starts here.
        if (!match_.empty() && match_.back().match != line.match) match_.clear();
        if (match_.size() < kChatRecordMax) match_.push_back(line);
    }
    if (visible_to(line, /*player=*/true)) {
        for_players_.push_back(line);
        if (for_players_.size() > kChatRecent) for_players_.pop_front();
    }
    for_all_.push_back(std::move(line));
    if (for_all_.size() > kChatRecent) for_all_.pop_front();
    return for_all_.back();
}

std::vector<ChatLine> ChatLog::take_match(int match) {
    std::vector<ChatLine> out;
    if (match_.empty() || match_.front().match > match) return out;  // a later match's lines stay
    if (match_.front().match == match) out = std::move(match_);
    match_.clear();  // taken, or an earlier match's that nobody took
    return out;
}

nlohmann::json chat_line_json(const ChatLine& line) {
    nlohmann::json j = {{"seq", line.seq},
                        {"from", line.from},
                        {"seat", line.seat ? nlohmann::json(index(*line.seat)) : nlohmann::json(nullptr)},
                        {"channel", to_string(line.channel)}};
    if (!line.phrase.empty()) j["phrase"] = line.phrase;
    else j["text"] = line.text;
    j["at"] = line.at_ms;
    return j;
}

nlohmann::json chat_json(const std::string& table, const ChatLine& line) {
    nlohmann::json j = {{"type", "chat"}, {"table", table}};
    j.update(chat_line_json(line));
    return j;
}

nlohmann::json chat_history_json(const std::string& table, const std::deque<ChatLine>& lines) {
    auto list = nlohmann::json::array();
    for (const auto& l : lines) list.push_back(chat_line_json(l));
    return {{"type", "chat_history"}, {"table", table}, {"lines", std::move(list)}};
}

nlohmann::json chat_record_json(const std::vector<ChatLine>& lines) {
    auto list = nlohmann::json::array();
    for (const auto& l : lines) list.push_back(chat_line_json(l));
    return list;
}

}  // namespace tarneeb::server
