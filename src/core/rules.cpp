#include "tarneeb/core/rules.hpp"

namespace tarneeb {

std::optional<Preset> parse_preset(std::string_view name) {
    if (name == "levantine") return Preset::levantine;
    if (name == "classic") return Preset::classic;
    return std::nullopt;
}

std::string_view to_string(Preset p) { return p == Preset::classic ? "classic" : "levantine"; }

}  // namespace tarneeb
