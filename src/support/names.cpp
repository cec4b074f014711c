// Display names: validation, NFC and TR39 keys with ICU (include/tarneeb/support/names.hpp).
#include "tarneeb/support/names.hpp"

#include <memory>
#include <string>
#include <stdexcept>

#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>

namespace tarneeb::server {

namespace {

struct SpoofCloser {
    void operator()(USpoofChecker* sc) const { uspoof_close(sc); }
};

/// The spoof checker, configured once and then only read (ICU: a configured checker may be
/// used from several threads at once).
const USpoofChecker& spoof_checker() {
    static const std::unique_ptr<USpoofChecker, SpoofCloser> kChecker = [] {
        UErrorCode status = U_ZERO_ERROR;
        std::unique_ptr<USpoofChecker, SpoofCloser> sc(uspoof_open(&status));
        uspoof_setChecks(sc.get(), USPOOF_RESTRICTION_LEVEL | USPOOF_INVISIBLE | USPOOF_MIXED_NUMBERS, &status);
        uspoof_setRestrictionLevel(sc.get(), USPOOF_MODERATELY_RESTRICTIVE);
        if (U_FAILURE(status)) throw std::runtime_error(std::string("ICU spoof checker: ") + u_errorName(status));
        return sc;
    }();
    return *kChecker;
}

const icu::Normalizer2& nfc() {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* n = icu::Normalizer2::getNFCInstance(status);
    if (U_FAILURE(status) || n == nullptr) throw std::runtime_error(std::string("ICU NFC: ") + u_errorName(status));
    return *n;
}

std::string to_utf8(const icu::UnicodeString& s) {
    std::string out;
    s.toUTF8String(out);
    return out;
}

icu::UnicodeString skeleton(const icu::UnicodeString& s) {
    UErrorCode status = U_ZERO_ERROR;
    icu::UnicodeString out;
    uspoof_getSkeletonUnicodeString(&spoof_checker(), 0, s, out, &status);
    if (U_FAILURE(status)) throw std::runtime_error(std::string("ICU skeleton: ") + u_errorName(status));
    return out;
}

icu::UnicodeString key_of(const icu::UnicodeString& normalized) {
    icu::UnicodeString upper(normalized);
    upper.toUpper(icu::Locale::getRoot());
    icu::UnicodeString folded = skeleton(upper);
    folded.foldCase();
    return skeleton(folded);
}

NameResult refused(NameProblem p) {
    NameResult r;
    r.problem = p;
    return r;
}

bool is_mark(std::int8_t type) { return type == U_NON_SPACING_MARK || type == U_COMBINING_SPACING_MARK; }

int columns(UChar32 c, std::int8_t type) {
    if (type == U_NON_SPACING_MARK || type == U_ENCLOSING_MARK) return 0;
    const int ea = u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH);
    return ea == U_EA_WIDE || ea == U_EA_FULLWIDTH ? 2 : 1;
}

}  // namespace

std::string_view describe(NameProblem p) {
    switch (p) {
        case NameProblem::empty: return "a name needs at least one letter or digit";
        case NameProblem::too_long: return "a name is at most 24 columns wide";
        case NameProblem::not_utf8: return "a name must be valid UTF-8";
        case NameProblem::bad_character:
            return "a name may hold letters, marks and digits of any script, spaces and _ - . only";
        case NameProblem::bad_spacing: return "a name cannot start or end with a space or hold two in a row";
        case NameProblem::bad_marks: return "too many combining marks, or a mark with no letter";
        case NameProblem::mixed_script: return "a name cannot mix look-alike scripts or number systems";
        case NameProblem::reserved: return "that name belongs to a bot";
    }
    return "bad name";
}

NameResult normalize_name(std::string_view utf8, const std::vector<std::string>& reserved) {
    if (utf8.size() > kMaxNameBytes) return refused(NameProblem::too_long);
    // Strict decoding: u_strFromUTF8 refuses ill-formed input (overlong forms, surrogates...).
    UErrorCode status = U_ZERO_ERROR;
    UChar buf[kMaxNameBytes + 1];
    std::int32_t len = 0;
    u_strFromUTF8(buf, static_cast<std::int32_t>(std::size(buf)), &len, utf8.data(),
                  static_cast<std::int32_t>(utf8.size()), &status);
    if (U_FAILURE(status)) return refused(NameProblem::not_utf8);
    const icu::UnicodeString raw(buf, len);
    const icu::UnicodeString text = nfc().normalize(raw, status);
    if (U_FAILURE(status)) throw std::runtime_error(std::string("ICU NFC: ") + u_errorName(status));

    int width = 0, code_points = 0, marks = 0, letters = 0;
    bool after_base = false;  // the previous character is a letter, digit or mark
    UChar32 prev = 0;
    for (std::int32_t i = 0; i < text.length(); i = text.moveIndex32(i, 1)) {
        const UChar32 c = text.char32At(i);
        const std::int8_t type = u_charType(c);
        ++code_points;
        if (c == ' ') {
            if (code_points == 1 || prev == ' ') return refused(NameProblem::bad_spacing);
        } else if (c == '_' || c == '-' || c == '.') {
            // allowed punctuation
        } else if (is_mark(type)) {
            if (!after_base) return refused(NameProblem::bad_marks);
            if (++marks > kMaxMarksPerBase) return refused(NameProblem::bad_marks);
        } else if (type == U_UPPERCASE_LETTER || type == U_LOWERCASE_LETTER || type == U_TITLECASE_LETTER ||
                   type == U_MODIFIER_LETTER || type == U_OTHER_LETTER || type == U_DECIMAL_DIGIT_NUMBER) {
            ++letters;
        } else {
            return refused(NameProblem::bad_character);
        }
        if (!is_mark(type)) marks = 0;
        after_base = c != ' ' && c != '_' && c != '-' && c != '.';
        width += columns(c, type);
        prev = c;
    }
    if (letters == 0) return refused(NameProblem::empty);
    if (prev == ' ') return refused(NameProblem::bad_spacing);
    if (width > kMaxNameWidth || code_points > kMaxNameCodePoints) return refused(NameProblem::too_long);

    status = U_ZERO_ERROR;
    const std::int32_t failed = uspoof_check2UnicodeString(&spoof_checker(), text, nullptr, &status);
    if (U_FAILURE(status)) throw std::runtime_error(std::string("ICU spoof check: ") + u_errorName(status));
    if (failed != 0) return refused(NameProblem::mixed_script);

    Name name{to_utf8(text), to_utf8(key_of(text))};
    // A bot's name, and the names bots are shown under at a table (its kind and seat 1..4,
    // bot_display_name in table.hpp: "heuristic 2").
    for (const std::string& bot : reserved) {
        if (name_key(bot) == name.key) return refused(NameProblem::reserved);
        for (int seat = 1; seat <= 4; ++seat)
            if (name_key(bot + " " + std::to_string(seat)) == name.key) return refused(NameProblem::reserved);
    }
    NameResult r;
    r.name = std::move(name);
    return r;
}

std::string name_key(std::string_view utf8) {
    UErrorCode status = U_ZERO_ERROR;
    const icu::UnicodeString text =
        nfc().normalize(icu::UnicodeString::fromUTF8(icu::StringPiece(utf8.data(), static_cast<std::int32_t>(utf8.size()))), status);
    if (U_FAILURE(status)) throw std::runtime_error(std::string("ICU NFC: ") + u_errorName(status));
    return to_utf8(key_of(text));
}

}  // namespace tarneeb::server
