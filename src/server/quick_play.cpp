// Quick play's choice of a table (include/tarneeb/server/quick_play.hpp says what it is).
#include "tarneeb/server/quick_play.hpp"

#include <algorithm>
#include <cstdlib>
#include <tuple>

namespace tarneeb::server {

int quick_window(Millis waited, Millis fill_ms) {
    constexpr int kFirst = 150, kLast = 500;
    if (fill_ms <= 0 || waited >= fill_ms) return kLast;
    if (waited <= 0) return kFirst;
    return kFirst + static_cast<int>((kLast - kFirst) * waited / fill_ms);
}

bool quick_before(const QuickSeat& a, const QuickSeat& b) {
    return std::make_tuple(-a.people, a.fill_at, a.table) < std::make_tuple(-b.people, b.fill_at, b.table);
}

std::optional<QuickSeat> choose_quick_table(const std::vector<nlohmann::json>& tables, Preset preset, int rating,
                                            Millis now, Millis fill_ms, std::string_view except) {
    std::optional<QuickSeat> best;
    for (const nlohmann::json& summary : tables) {
        const nlohmann::json* t = &summary;
        if (!t->is_object()) continue;
        const auto quick = t->find("quick");
        if (quick == t->end() || !quick->is_object() || t->value("private", true) || t->value("state", "") != "waiting" ||
            t->value("preset", "") != to_string(preset))
            continue;
        const auto fill_at = quick->find("fill_at");
        const auto table_rating = quick->find("rating");
        const auto seats = t->find("seats");
        const auto id = t->find("table");
        if (fill_at == quick->end() || !fill_at->is_number_integer() || table_rating == quick->end() ||
            !table_rating->is_number_integer() || seats == t->end() || !seats->is_array() || seats->size() != 4 ||
            id == t->end() || !id->is_string() || id->get_ref<const std::string&>() == except)
            continue;
        const Millis at = fill_at->get<Millis>();
        if (at <= now) continue;  // filling now
        if (std::abs(table_rating->get<int>() - rating) > quick_window(fill_ms - (at - now), fill_ms)) continue;
        int people = 0;
        std::optional<Seat> empty;
        for (int s = 0; s < 4; ++s) {
            // A seat: null when empty, else {"name", "bot", ...} (seat_json).
            const nlohmann::json& seat = (*seats)[static_cast<std::size_t>(s)];
            if (seat.is_null() && !empty) empty = static_cast<Seat>(s);
            if (seat.is_object() && !seat.value("bot", true)) ++people;
        }
        if (!empty) continue;
        QuickSeat seat{id->get<std::string>(), *empty, people, at};
        if (!best || quick_before(seat, *best)) best = std::move(seat);
    }
    return best;
}

}  // namespace tarneeb::server
