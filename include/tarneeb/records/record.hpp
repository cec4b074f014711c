// Game records (docs/record-format.md): reading and checking a `tarneeb-record/1` by playing
// it through the engine, writing the `tarneeb-result/1` answer, and writing a record for any
// match the engine played.
//
// This is the only part of the library that knows JSON (nlohmann-json); core stays free of it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tarneeb/core/match.hpp"

namespace tarneeb::records {

inline constexpr std::string_view kRecordFormat = "tarneeb-record/1";
inline constexpr std::string_view kResultFormat = "tarneeb-result/1";

/// Where a record was rejected (record-format.md "Error codes"): `deal` is the deal's
/// position (nullopt for top-level fields), `phase` one of record, hands, auction, trump,
/// play, and `index` the position in that phase's list (nullopt where none applies).
struct RecordError {
    ErrorCode code = ErrorCode::ok;
    std::optional<int> deal;
    std::string_view phase = "record";
    std::optional<int> index;
};

/// The outcome of replaying a record: the match as far as it was legal, and the first error.
struct Replay {
    Match match;
    std::optional<RecordError> error;
};

/// Reads and checks a record given as JSON text. Never throws for bad input: unreadable JSON
/// and every rule violation come back as `error`, with `match` holding what came before it.
Replay replay(std::string_view json_text);

/// The `tarneeb-result/1` object for a replay (record-format.md "Result").
nlohmann::json result_json(const Replay& replay);

/// A `tarneeb-record/1` for a match the engine played (resolved calls, trumps and cards).
/// Rules other than a preset's target, cap or pass-out limit are kept under the extra key
/// "match_settings", which replay() honours and other readers ignore.
nlohmann::json record_json(const Match& match);

/// Summary of one round in the result's "deals" shape, with its "trick_list".
nlohmann::json deal_json(const Match& match, int round_index);

/// One trick of the engine (core Trick) as JSON: {"leader": seat, "cards": [{"seat": s,
/// "card": "AH"}, ...] in play order, "winner": seat | null}. `winner` is the engine's
/// (Round::trick_winner), nullopt for an unfinished trick; it is never worked out here. The
/// shape of the result's "trick_list" and of the table message's round.finished_tricks and
/// round.current_trick (docs/protocol.md "table"): one function for both.
nlohmann::json trick_json(const Trick& trick, std::optional<Seat> winner);

/// Every trick of a round so far, in order (record-format.md "trick_list"): each finished trick
/// with its winner, then the trick in progress if a card of it was played (winner null). Empty
/// before the play (auction, trump, passed out). Only played cards: never a card still held.
nlohmann::json trick_list_json(const Round& round);

}  // namespace tarneeb::records
