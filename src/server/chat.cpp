// Table chat: text checks (ICU), quick phrases, the rate limits and a table's log (chat.hpp).
#include "tarneeb/server/chat.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include <unicode/brkiter.h>
#include <unicode/locid.h>
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
        case ChatProblem::empty: return "the line has nothing visible";
        case ChatProblem::too_long: return "a line has at most 200 characters";
        case ChatProblem::not_utf8: return "the line is not UTF-8";
        case ChatProblem::control: return "control, line break and bidirectional override characters are not allowed";
        case ChatProblem::too_many_marks: return "at most 4 combining marks on one character";
    }
    return "bad line";
}

std::string_view reason(ChatProblem p) {
    switch (p) {
        case ChatProblem::none: return "";
        case ChatProblem::empty: return "empty";
        case ChatProblem::too_long: return "too_long";
        case ChatProblem::not_utf8: return "not_utf8";
        case ChatProblem::control: return "control";
        case ChatProblem::too_many_marks: return "too_many_marks";
    }
    return "";
}

namespace {

/// Refused outright: controls (C0, C1, DEL: line breaks and tabs), line and paragraph
/// separators, and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
/// U+2066–U+2069) that could reorder the text around them.
bool chat_refused(UChar32 c) {
    const std::int8_t type = u_charType(c);
    return type == U_CONTROL_CHAR || type == U_LINE_SEPARATOR || type == U_PARAGRAPH_SEPARATOR ||
           (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

bool chat_mark(UChar32 c) { return (U_GET_GC_MASK(c) & U_GC_M_MASK) != 0; }
bool pictograph(UChar32 c) { return u_hasBinaryProperty(c, UCHAR_EXTENDED_PICTOGRAPHIC); }
bool variation_selector(UChar32 c) { return u_hasBinaryProperty(c, UCHAR_VARIATION_SELECTOR); }
bool tag_character(UChar32 c) { return c >= 0xE0000 && c <= 0xE007F; }
bool invisible_kind(UChar32 c) {
    return u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) || u_charType(c) == U_FORMAT_CHAR;
}
/// Something a person sees (not white space, the blank braille pattern U+2800, nor a mark alone).
bool chat_visible(UChar32 c) { return !u_isUWhiteSpace(c) && c != 0x2800 && !chat_mark(c); }

const icu::Normalizer2& chat_nfc() {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
    if (U_FAILURE(status) || nfc == nullptr) throw std::runtime_error(std::string("ICU NFC: ") + u_errorName(status));
    return *nfc;
}

/// A character break iterator (grapheme clusters) over `text`, which must outlive it.
std::unique_ptr<icu::BreakIterator> clusters(const icu::UnicodeString& text) {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> it(icu::BreakIterator::createCharacterInstance(icu::Locale::getRoot(), status));
    if (U_FAILURE(status) || !it) throw std::runtime_error(std::string("ICU break iterator: ") + u_errorName(status));
    it->setText(text);
    return it;
}

int count_clusters(const icu::UnicodeString& text) {
    auto it = clusters(text);
    int n = 0;
    for (std::int32_t end = it->next(); end != icu::BreakIterator::DONE; end = it->next()) ++n;
    return n;
}

/// The kept code points of one grapheme cluster [from, to) of `text` appended to `out`: the
/// invisible kinds are dropped except what emoji sequences need (chat.hpp).
ChatProblem keep_cluster(const icu::UnicodeString& text, std::int32_t from, std::int32_t to, icu::UnicodeString& out,
                         bool& visible) {
    const UChar32 first = text.char32At(from);
    UChar32 prev = 0;  // the previous kept code point of the cluster (0: none yet)
    int marks = 0;
    for (std::int32_t i = from; i < to; i = text.moveIndex32(i, 1)) {
        const UChar32 c = text.char32At(i);
        if (chat_refused(c)) return ChatProblem::control;
        bool keep = !invisible_kind(c);
        if (c == 0x200D) {
            // A zero-width joiner between two pictographs (a modifier or selector may follow the first).
            const std::int32_t next = text.moveIndex32(i, 1);
            keep = prev != 0 && next < to && pictograph(text.char32At(next)) &&
                   (pictograph(prev) || variation_selector(prev) || u_hasBinaryProperty(prev, UCHAR_EMOJI_MODIFIER));
        } else if (variation_selector(c)) {
            // One selector after a character; the emoji and text ones (U+FE0F, U+FE0E) only after an emoji.
            keep = prev != 0 && !variation_selector(prev) &&
                   ((c != 0xFE0E && c != 0xFE0F) || u_hasBinaryProperty(prev, UCHAR_EMOJI));
        } else if (tag_character(c)) {
            keep = first == 0x1F3F4 && prev != 0;  // 🏴 and its tags: a subdivision flag
        }
        if (!keep) continue;
        if (chat_mark(c) && ++marks > kChatMaxMarks) return ChatProblem::too_many_marks;  // drawn marks only
        out.append(c);
        visible = visible || chat_visible(c);
        prev = c;
    }
    return ChatProblem::none;
}

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
    const icu::UnicodeString text = chat_nfc().normalize(icu::UnicodeString(buf, len), status);
    if (U_FAILURE(status)) throw std::runtime_error(std::string("ICU NFC: ") + u_errorName(status));
    icu::UnicodeString kept;
    bool visible = false;
    auto it = clusters(text);
    for (std::int32_t from = it->first(), to = it->next(); to != icu::BreakIterator::DONE; from = to, to = it->next()) {
        if (const ChatProblem p = keep_cluster(text, from, to, kept, visible); p != ChatProblem::none) return {std::nullopt, p};
    }
    if (!visible) return {std::nullopt, ChatProblem::empty};
    // A removed code point (CGJ) may have kept marks from composing: NFC again.
    kept = chat_nfc().normalize(kept, status);
    if (U_FAILURE(status)) throw std::runtime_error(std::string("ICU NFC: ") + u_errorName(status));
    // Counted once the invisible code points are gone (what the readers will see).
    if (count_clusters(kept) > kChatMaxLength) return {std::nullopt, ChatProblem::too_long};
    std::string out;
    kept.toUTF8String(out);
    return {std::move(out), ChatProblem::none};
}

int chat_length(std::string_view utf8) {
    return count_clusters(icu::UnicodeString::fromUTF8(icu::StringPiece(utf8.data(), static_cast<std::int32_t>(utf8.size()))));
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

bool ChatRate::full(std::int64_t now) {
    while (!sent_.empty() && now - sent_.front() >= kChatRateWindowMs) sent_.pop_front();
    return static_cast<int>(sent_.size()) >= lines_;
}

bool ChatRate::allow(std::int64_t now) {
    if (full(now)) return false;
    count(now);
    return true;
}

bool ChatRate::idle(std::int64_t now) {
    full(now);  // drops the lines out of the window
    return sent_.empty();
}

std::string_view to_string(ChatLimit l) {
    switch (l) {
        case ChatLimit::none: return "";
        case ChatLimit::guest: return "guest";
        case ChatLimit::address: return "address";
        case ChatLimit::table: return "table";
    }
    return "";
}

ChatLimit chat_limit(ChatRate& guest, ChatRate* address, ChatRate& table, bool player, std::int64_t now) {
    // The guest's and the address's limits hold everyone; the table's only spectators (chat.hpp).
    if (guest.full(now)) return ChatLimit::guest;
    if (address && address->full(now)) return ChatLimit::address;
    if (table.full(now) && !player) return ChatLimit::table;
    guest.count(now);
    if (address) address->count(now);
    table.count(now);
    return ChatLimit::none;
}

const ChatLine& ChatLog::add(ChatLine line) {
    line.seq = ++seq_;
    if (line.during_play) {
        // A line of a newer match than the kept ones: that match's record starts here.
        if (!match_.empty() && match_.back().match != line.match) match_.clear();
        if (match_.size() < kChatRecordMax) match_.push_back(line);
    }
    // Each channel keeps its own last lines: spectators' lines never push out the players'.
    const bool player = line.channel == ChatChannel::players;
    auto& kept = player ? players_ : spectators_;
    kept.push_back(std::move(line));
    if (kept.size() > (player ? kChatRecent : kChatRecentSpectators)) kept.pop_front();
    return kept.back();
}

std::vector<ChatLine> ChatLog::recent(bool player) const {
    std::vector<ChatLine> out;
    for (const auto& l : spectators_)
        if (visible_to(l, player)) out.push_back(l);
    out.insert(out.end(), players_.begin(), players_.end());
    std::sort(out.begin(), out.end(), [](const ChatLine& a, const ChatLine& b) { return a.seq < b.seq; });
    return out;
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

nlohmann::json chat_history_json(const std::string& table, const std::vector<ChatLine>& lines) {
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
