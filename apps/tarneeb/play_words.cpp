// tarneeb play's words and answers (play_words.hpp says what they are).
#include "play_words.hpp"

#include <string_view>
#include <utility>

namespace tarneeb::cli {

const Words kEnglish{
    "You", "Right", "Partner", "Left", "us", "them", "Round", "dealer", "Your hand", "Auction", "pass",
    "bids", "bid", "Contract", "trump", "Tricks", "Trick", "we need", "they need", "scored rounds/deals", "Score", "target",
    "wins the trick", "You win the trick", ", ", "; ",
    "Your call (7-13 or pass; ? for help)", "Name trump (s, h, d, c)", "Your card (e.g. QS, 10h; ? for help)",
    "made", "set", "All passed: the cards are dealt again.", "Match over", "winner", "a draw",
    "the table is closed (too many passed-out deals)", "Game ended.", "Legal", "Hint", "(hint, quit)",
    "Please answer (? lists the legal moves).", "Not a call: bid or pass, bids", "Bids go", "Too low: the bid stands at",
    "Not a suit: answer s, h, d or c.", "Not a card: write it like QS, 10h or td.", "You do not hold",
    "You must follow suit and you hold one:", "Not allowed now:"};

// A trick is «لفة» and trump «حكم», as in the browser client (issue 14).
const Words kArabic{
    "أنت", "اليمين", "الشريك", "اليسار", "نحن", "هم", "الجولة", "الموزع", "أوراقك", "المزايدة", "باس",
    "يطلب", "تطلب", "العقد", "الحكم", "اللفات", "اللفة", "نحتاج", "هم يحتاجون", "الجولات المحسوبة/التوزيعات", "النتيجة",
    "الهدف", "يأخذ اللفة", "تأخذ اللفة", "، ", "؛ ",
    "طلبك (٧-١٣ أو باس، ؟ للمساعدة)", "اختر الحكم (بستوني، كبة، ديناري، سباتي، أو \u2066s h d c\u2069)",
    "ورقتك (مثل \u2066QS\u2069 أو \u206610h\u2069، ؟ للمساعدة)",
    "نجح", "كُسر", "الجميع باس: يعاد التوزيع.", "انتهت المباراة", "الفائز", "تعادل",
    "أغلقت الطاولة (توزيعات كثيرة بلا عقد)", "انتهت اللعبة.", "المسموح", "اقتراح", "(تلميح، خروج)",
    "أجب من فضلك (؟ يعرض الخيارات).", "ليس طلبًا: اطلب أو قل باس، الطلبات", "الطلبات من", "منخفض: الطلب الحالي",
    "ليس لونًا: أجب \u2066s\u2069 أو \u2066h\u2069 أو \u2066d\u2069 أو \u2066c\u2069.",
    "ليست ورقة: اكتبها مثل \u2066QS\u2069 أو \u206610h\u2069 أو \u2066td\u2069.", "لا تملك",
    "يجب أن تتبع اللون وعندك منه:", "غير مسموح الآن:"};

std::string lower_trim(std::string s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    const auto e = s.find_last_not_of(" \t\r\n");
    s = b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

/// An answer as the prompts read it, whatever --lang says: lower_trim, Eastern Arabic digits
/// (٠-٩, U+0660-U+0669, and the Persian forms ۰-۹, U+06F0-U+06F9) as ASCII digits in bids and
/// card ranks ("١٠h" is 10h), «؟» as "?", the Arabic words «باس» (pass), «تلميح» (hint)
/// and «خروج» (quit) as the English ones, and the Levantine suit names as the browser client
/// writes them — «بستوني» spades, «كبة» hearts, «ديناري» diamonds, «سباتي» clubs (and the
/// spellings «كبّة», «دينار», «اسباتي») — as their letters, alone (a trump) or after a rank
/// ("١٠ كبة" is 10h).
std::string normalise_answer(const std::string& line) {
    static constexpr std::string_view kDigits[2][10] = {{"٠", "١", "٢", "٣", "٤", "٥", "٦", "٧", "٨", "٩"},
                                                        {"۰", "۱", "۲", "۳", "۴", "۵", "۶", "۷", "۸", "۹"}};
    static constexpr std::pair<std::string_view, std::string_view> kWords[] = {
        {"باس", "pass"}, {"تلميح", "hint"}, {"خروج", "quit"}};
    constexpr std::string_view kQuestion = "؟";
    std::string s;
    for (std::size_t i = 0; i < line.size();) {
        const std::string_view rest = std::string_view(line).substr(i);
        if (rest.starts_with(kQuestion)) {
            s += '?';
            i += kQuestion.size();
            continue;
        }
        bool digit = false;
        for (const auto& digits : kDigits)
            for (int d = 0; d < 10 && !digit; ++d)
                if (rest.starts_with(digits[d])) {
                    s += static_cast<char>('0' + d);
                    i += digits[d].size();
                    digit = true;
                }
        if (!digit) s += line[i++];
    }
    s = lower_trim(s);
    for (const auto& [arabic, english] : kWords)
        if (s == arabic) return std::string(english);
    static constexpr std::pair<std::string_view, char> kSuits[] = {
        {"بستوني", 's'}, {"كبة", 'h'}, {"كبّة", 'h'}, {"ديناري", 'd'}, {"دينار", 'd'}, {"سباتي", 'c'}, {"اسباتي", 'c'}};
    for (const auto& [name, letter] : kSuits)
        if (s.ends_with(name)) {
            std::string rank = lower_trim(s.substr(0, s.size() - name.size()));
            if (rank.find(' ') == std::string::npos) return rank + letter;
        }
    return s;
}

}  // namespace tarneeb::cli
