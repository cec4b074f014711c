// Display names of guests (docs/protocol.md "hello"): which names are accepted, their normal
// form, and the key that makes two names "the same name".
//
// A name is UTF-8 text in any script. It is accepted when, after NFC normalisation (Unicode
// UAX #15, so «Zoë» typed as o + U+0308 and as U+00EB is one name):
//   - it is valid UTF-8 of at most kMaxNameBytes bytes (input) and kMaxNameCodePoints code points;
//   - every character is a letter (L*), a combining mark (Mn, Mc) or a decimal digit (Nd) of
//     Unicode, or one of ' ', '_', '-', '.'; so no control, format (bidi overrides and
//     isolates, ZWJ, ZWNJ, ZWSP...), symbol or other space character;
//   - it has at least one letter or digit, no space at either end and no two spaces in a row;
//   - a combining mark follows a letter or digit, with at most kMaxMarksPerBase marks in a row
//     (no "Zalgo" floods);
//   - its display width (East Asian Wide/Fullwidth characters count 2 columns, marks 0, others
//     1) is at most kMaxNameWidth columns;
//   - ICU's spoof checker (Unicode TR39) passes it at the "moderately restrictive" level: one
//     script, or Latin with one other script except Cyrillic and Greek (so `Pаul` with a
//     Cyrillic а is refused), no mix of digits from different number systems, and no
//     invisible repeated marks.
//
// Two names are the same name when their keys (name_key) are equal: the TR39 confusable
// skeleton with case folded, so with `Layla` registered, `layla`, `LAYLA`, `LayIa` (capital
// i), `Lay1a` and `Lаyla` (Cyrillic а) are all taken.
//
// Thread-safe (the ICU objects used are built once and only read).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tarneeb::server {

inline constexpr std::size_t kMaxNameBytes = 256;     ///< input bytes (before normalisation)
inline constexpr int kMaxNameCodePoints = 64;         ///< after NFC
inline constexpr int kMaxNameWidth = 24;              ///< display columns
inline constexpr int kMaxMarksPerBase = 3;            ///< combining marks in a row

/// Why a name was refused (the protocol error is always `bad_name`; this is its message).
enum class NameProblem : unsigned char {
    empty,          ///< no letter or digit
    too_long,       ///< over kMaxNameWidth columns, kMaxNameCodePoints or kMaxNameBytes
    not_utf8,       ///< malformed UTF-8
    bad_character,  ///< a control, format (bidi, zero-width), symbol or other space character
    bad_spacing,    ///< a space at either end or two in a row
    bad_marks,      ///< a combining mark with no base, or more than kMaxMarksPerBase in a row
    mixed_script,   ///< refused by the TR39 spoof checks (mixed scripts or number systems)
    reserved,       ///< the same name (by key) as a bot
};

/// A human-readable English sentence for a problem (the `message` of the `bad_name` error).
std::string_view describe(NameProblem p);

/// An accepted name: its NFC form (what is stored and shown) and its key.
struct Name {
    std::string text;  ///< NFC, UTF-8
    std::string key;   ///< name_key(text)
};

/// The result of normalize_name: a name or the reason it was refused.
struct NameResult {
    std::optional<Name> name;
    NameProblem problem = NameProblem::empty;  ///< meaningful only when !name
};

/// Checks and normalises a display name (rules above). `reserved` are names no guest may take
/// (the bots' names): a name whose key equals one of theirs, or one of the names a bot is shown
/// under at a table ("heuristic 1" .. "heuristic 4"), is refused with `reserved`.
NameResult normalize_name(std::string_view utf8, const std::vector<std::string>& reserved = {});

/// The uniqueness key of a name: the TR39 skeleton of the case-folded, NFC text, taken
/// after mapping the text to upper case and to its skeleton once first, so that confusables
/// that differ only in one case (capital I and small l; small i has no such twin) still meet.
/// UTF-8 in and out; any text is accepted (malformed UTF-8 is replaced by U+FFFD first), so it
/// also keys names stored before these rules (Storage's migration).
std::string name_key(std::string_view utf8);

}  // namespace tarneeb::server
