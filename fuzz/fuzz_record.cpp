// libFuzzer target: the record reader (tarneeb replay). Any input must give a result without
// crashing; a legal record must survive a write → read round trip unchanged.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tarneeb/records/record.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const tarneeb::records::Replay first = tarneeb::records::replay(text);
    const nlohmann::json result = tarneeb::records::result_json(first);
    if (result["ok"].get<bool>() == first.error.has_value()) std::abort();
    if (!first.error) {
        const std::string written = tarneeb::records::record_json(first.match).dump();
        const tarneeb::records::Replay second = tarneeb::records::replay(written);
        if (second.error || tarneeb::records::result_json(second) != result) std::abort();
    }
    return 0;
}
