// Table chat (issue 15, docs/protocol.md "Chat"): the lines people at a table send each other,
// with no sockets and no JSON transport (the table host's `chat` handler is src/server/table_host_chat.cpp).
//
// Two channels. A seated player writes to `players` (everyone at the table reads it, players
// and spectators); a spectator writes to `spectators`. A spectator's line sent while a match is
// being played is never delivered to a player, not then and not later (no outside help on the
// hands): the line is marked `during_play` when it is sent and visible_to() keeps it from
// players for good. A spectator's line sent while the table is waiting or finished (between
// matches) reaches everyone. Spectators always read both channels.
//
// A line is either free text or a quick phrase. Text is UTF-8, normalised to NFC, at most
// kChatMaxCodePoints code points after NFC (kChatMaxBytes as sent), not empty or blank, with
// no control character (C0, C1, DEL, line breaks included) and no bidirectional embedding,
// override or isolate (U+202A–U+202E, U+2066–U+2069), which could reorder the text around it
// on other people's screens. A quick phrase is an id from quick_phrases() ("yalla"): each
// client shows it in its own language. Lines are shown as text by clients, never as markup.
//
// Limits per guest (over all its connections): kChatRateLines lines per kChatRateWindowMs
// (a sliding window, ChatRate); beyond, the line is refused (`chat_rate_limited`) and not
// counted. A table keeps, for late joiners, the last kChatRecent lines each audience may read,
// and, for the match record (docs/record-format.md "chat"), the lines sent while its current
// match is played, at most kChatRecordMax (later lines are delivered but not recorded).
// Chat lives in memory: it is not journaled, so a restart loses the chat of live tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/core/cards.hpp"

namespace tarneeb::server {

inline constexpr int kChatMaxCodePoints = 200;         ///< a line's text after NFC, at most
inline constexpr std::size_t kChatMaxBytes = 1024;     ///< a line's text as sent, at most
inline constexpr int kChatRateLines = 5;               ///< lines per guest per window...
inline constexpr std::int64_t kChatRateWindowMs = 10000;  ///< ...of this many ms
inline constexpr std::size_t kChatRecent = 50;         ///< lines a late joiner gets, at most
inline constexpr std::size_t kChatRecordMax = 500;     ///< lines kept in a match's record, at most

enum class ChatChannel : std::uint8_t { players, spectators };
/// "players" or "spectators".
std::string_view to_string(ChatChannel c);

/// One line as the table keeps it. Exactly one of `text` and `phrase` is non-empty.
struct ChatLine {
    std::uint64_t seq = 0;         ///< 1, 2, … per table (set by ChatLog::add): clients drop repeats by it
    std::string from;              ///< the sender's name
    std::optional<Seat> seat;      ///< the sender's seat; nullopt for a spectator
    ChatChannel channel = ChatChannel::players;
    std::string text;              ///< NFC text (normalize_chat)
    std::string phrase;            ///< a quick phrase id
    std::int64_t at_ms = 0;        ///< when it was sent, Unix ms (the server's wall clock)
    bool during_play = false;      ///< sent while a match was being played
    int match = 0;                 ///< that match's number at the table (0 when not during play)
};

/// Whether `line` may be delivered to a seated player (`player` true) or a spectator (false).
bool visible_to(const ChatLine& line, bool player);

enum class ChatProblem : std::uint8_t { none, empty, too_long, not_utf8, control };
/// A short English reason (the error's `message`).
std::string_view describe(ChatProblem p);

struct ChatText {
    std::optional<std::string> text;   ///< the NFC text when accepted
    ChatProblem problem = ChatProblem::none;
};
/// Checks and normalises a line's text (the rules in this file's comment). Surrounding white
/// space is kept as typed except that a line of white space only is `empty`.
ChatText normalize_chat(std::string_view utf8);

/// The quick phrase ids, in the order clients show them: yalla («يلا»), afye («الله يعطيك
/// العافية»), well_played, good_luck, thanks, sorry, hurry, one_more. Clients translate them.
const std::vector<std::string_view>& quick_phrases();
bool is_quick_phrase(std::string_view id);

/// A guest's chat rate: at most kChatRateLines lines in any kChatRateWindowMs.
class ChatRate {
public:
    /// True (and the line counted) when a line sent at `now` (ms, any monotonic clock) is within
    /// the limit; false (not counted) when it is over it.
    bool allow(std::int64_t now);

private:
    std::deque<std::int64_t> sent_;  ///< times of the lines in the window, oldest first (≤ kChatRateLines)
};

/// One table's chat: recent lines for late joiners and the current match's lines for its record.
class ChatLog {
public:
    /// Adds a line (numbering it) and returns it as kept.
    const ChatLine& add(ChatLine line);
    /// The last kChatRecent lines a player (`player` true) or a spectator may read, oldest first.
    const std::deque<ChatLine>& recent(bool player) const { return player ? for_players_ : for_all_; }
    /// The lines sent while match `match` was played (at most kChatRecordMax, oldest first),
    /// removed from the log (an earlier match's lines, never taken, are dropped; a later
    /// match's stay).
    std::vector<ChatLine> take_match(int match);

private:
    std::uint64_t seq_ = 0;
    std::deque<ChatLine> for_players_;  ///< the last lines visible to players
    std::deque<ChatLine> for_all_;      ///< the last lines (spectators read them all)
    std::vector<ChatLine> match_;       ///< lines of the match under way, for its record
};

/// A line as sent to clients and kept in records: {"seq","from","seat" (0..3 | null),
/// "channel","text" | "phrase","at" (Unix ms)}.
nlohmann::json chat_line_json(const ChatLine& line);
/// The pushed message {"type":"chat","table", …the line's keys}.
nlohmann::json chat_json(const std::string& table, const ChatLine& line);
/// {"type":"chat_history","table","lines":[line…]}: what a guest arriving at a table may read.
nlohmann::json chat_history_json(const std::string& table, const std::deque<ChatLine>& lines);
/// The record's optional "chat" list (docs/record-format.md): the lines, each chat_line_json.
nlohmann::json chat_record_json(const std::vector<ChatLine>& lines);

}  // namespace tarneeb::server
