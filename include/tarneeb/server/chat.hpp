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
// A line is either free text or a quick phrase. Text (normalize_chat) is UTF-8 (at most
// kChatMaxBytes as sent), normalised to NFC, then read one grapheme cluster (what a person sees
// as one character: ICU's character break iterator) at a time:
//   - refused (`control`): a control character (C0, C1, DEL, line breaks included), a line or
//     paragraph separator (U+2028, U+2029), a bidirectional embedding, override or isolate
//     (U+202A–U+202E, U+2066–U+2069), which could reorder the text around it;
//   - removed: every other default-ignorable code point and format character (Cf): zero-width
//     spaces and joiners, word joiner, BOM, soft hyphen, CGJ, LRM/RLM/ALM, Hangul fillers,
//     U+180E, tag characters... — except what emoji need: a ZWJ between two pictographs of one
//     cluster (👨‍👩‍👧‍👦), one variation selector after a character of its cluster (U+FE0E/U+FE0F only
//     after an emoji: ❤️, 1️⃣), and the tags of a flag's tag sequence (a cluster that starts
//     with U+1F3F4 🏴);
//   - refused (`too_many_marks`): a cluster with more than kChatMaxMarks combining marks (Mn,
//     Mc, Me; the kept ones): a tower of marks drawn over the neighbouring lines. Refused, not
//     trimmed, so a line is delivered as typed (less the removed characters, NFC again) or not
//     at all.
// What is left must have a visible character (not white space, U+2800 or marks alone), else
// `empty`, and at most kChatMaxLength grapheme clusters, else `too_long`. A quick phrase is an
// id from quick_phrases() ("yalla"): each client shows it in its own language. Lines are shown
// as text by clients, never as markup. The web client counts the same way (web/src/chat.ts
// chatLength: Intl.Segmenter, granularity "grapheme") with the same limits.
//
// Limits (chat_limit, one place): a line counts against its guest (over all its connections:
// kChatRateLines), its connection's address (over all the guests of that address:
// kChatAddressLines) and its table (kChatTableLines), each in a sliding window of
// kChatRateWindowMs. A line over the guest's or the address's limit is refused
// (`chat_rate_limited`, scope "guest" or "address"); the table's limit refuses only spectators'
// lines (scope "table"), so that spectators cannot silence the players (each player is held by
// its own limit). A refused line is counted nowhere. The table's host counts them (TableHost:
// each event loop, each node, runs its own tables), so an address's limit holds at each table
// and over the tables of one host.
//
// History: a table keeps, for late joiners, the last kChatRecent lines of the players' channel
// and, apart, the last kChatRecentSpectators of the spectators' channel, so that spectators'
// lines never push the players' out; a late joiner gets both (what it may read), in seq order.
// For the match record (docs/record-format.md "chat") it keeps the lines sent while its current
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

inline constexpr int kChatMaxLength = 200;             ///< grapheme clusters in a line's text, at most
inline constexpr std::size_t kChatMaxBytes = 4096;     ///< a line's text as sent, at most
inline constexpr int kChatMaxMarks = 4;                ///< combining marks in one grapheme cluster, at most
inline constexpr int kChatRateLines = 5;               ///< lines per guest per window...
inline constexpr int kChatAddressLines = 10;           ///< ...per address (all its guests)...
inline constexpr int kChatTableLines = 20;             ///< ...per table (spectators refused past it)...
inline constexpr std::int64_t kChatRateWindowMs = 10000;  ///< ...in a window of this many ms
inline constexpr std::size_t kChatRecent = 50;         ///< players' channel lines a late joiner gets, at most
inline constexpr std::size_t kChatRecentSpectators = 20;  ///< spectators' channel lines kept apart, at most
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

enum class ChatProblem : std::uint8_t { none, empty, too_long, not_utf8, control, too_many_marks };
/// A short English reason (the error's `message`).
std::string_view describe(ChatProblem p);
/// The stable reason (the `bad_chat` error's `reason`): "empty", "too_long", "not_utf8",
/// "control", "too_many_marks" ("" for none).
std::string_view reason(ChatProblem p);

struct ChatText {
    std::optional<std::string> text;   ///< the NFC text when accepted
    ChatProblem problem = ChatProblem::none;
};
/// Checks and normalises a line's text (the rules in this file's comment). Surrounding white
/// space is kept as typed except that a line with nothing visible is `empty`.
ChatText normalize_chat(std::string_view utf8);
/// The grapheme clusters of a text (UTF-8; ill-formed input counts as its replacement characters).
int chat_length(std::string_view utf8);

/// The quick phrase ids, in the order clients show them: yalla («يلا»), afye («الله يعطيك
/// العافية»), well_played, good_luck, thanks, sorry, hurry, one_more. Clients translate them.
const std::vector<std::string_view>& quick_phrases();
bool is_quick_phrase(std::string_view id);

/// A chat rate: at most `lines` lines in any kChatRateWindowMs (a guest's, an address's, a table's).
class ChatRate {
public:
    explicit ChatRate(int lines = kChatRateLines) : lines_(lines) {}
    /// True when a line sent at `now` (ms, any monotonic clock) would be over the limit.
    bool full(std::int64_t now);
    /// Counts a line sent at `now`.
    void count(std::int64_t now) { sent_.push_back(now); }
    /// full() or else count(): true when the line was within the limit (and counted).
    bool allow(std::int64_t now);
    /// True when no line sent before `now` is in the window any more (the rate may be dropped).
    bool idle(std::int64_t now);

private:
    int lines_;
    std::deque<std::int64_t> sent_;  ///< times of the lines in the window, oldest first
};

/// Which limit refused a line (`none`: it was within every limit).
enum class ChatLimit : std::uint8_t { none, guest, address, table };
/// The error's "scope": "guest", "address" or "table" ("" for none).
std::string_view to_string(ChatLimit l);
/// The chat limits of a line sent at `now` (the rules in this file's comment): the first limit
/// it is over, or none, and then the line is counted in every rate. `address` may be null (an
/// unknown address: no address limit); `player`: the sender is seated.
ChatLimit chat_limit(ChatRate& guest, ChatRate* address, ChatRate& table, bool player, std::int64_t now);

/// One table's chat: recent lines for late joiners and the current match's lines for its record.
class ChatLog {
public:
    /// Adds a line (numbering it) and returns it as kept.
    const ChatLine& add(ChatLine line);
    /// The kept lines a player (`player` true) or a spectator may read, in seq order: of the
    /// last kChatRecent of the players' channel and the last kChatRecentSpectators of the
    /// spectators' channel.
    std::vector<ChatLine> recent(bool player) const;
    /// The lines sent while match `match` was played (at most kChatRecordMax, oldest first),
    /// removed from the log (an earlier match's lines, never taken, are dropped; a later
    /// match's stay).
    std::vector<ChatLine> take_match(int match);

private:
    std::uint64_t seq_ = 0;
    std::deque<ChatLine> players_;      ///< the players' channel's last lines
    std::deque<ChatLine> spectators_;   ///< the spectators' channel's last lines
    std::vector<ChatLine> match_;       ///< lines of the match under way, for its record
};

/// A line as sent to clients and kept in records: {"seq","from","seat" (0..3 | null),
/// "channel","text" | "phrase","at" (Unix ms)}.
nlohmann::json chat_line_json(const ChatLine& line);
/// The pushed message {"type":"chat","table", …the line's keys}.
nlohmann::json chat_json(const std::string& table, const ChatLine& line);
/// {"type":"chat_history","table","lines":[line…]}: what a guest arriving at a table may read.
nlohmann::json chat_history_json(const std::string& table, const std::vector<ChatLine>& lines);
/// The record's optional "chat" list (docs/record-format.md): the lines, each chat_line_json.
nlohmann::json chat_record_json(const std::vector<ChatLine>& lines);

}  // namespace tarneeb::server
