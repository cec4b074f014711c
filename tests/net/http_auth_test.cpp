// The Authorization header's bearer token (include/tarneeb/net/http_auth.hpp; issue 27: a
// lower-case `bearer` was refused, though RFC 9110 makes the scheme case-insensitive).
#include "tarneeb/net/http_auth.hpp"

#include <string>

#include <gtest/gtest.h>

namespace tarneeb::server {
namespace {

TEST(BearerToken, TheSchemeIsCaseInsensitiveAndSpacesBeforeTheTokenAreAllowed) {
    EXPECT_EQ(bearer_token("Bearer abc123"), "abc123");
    EXPECT_EQ(bearer_token("bearer abc123"), "abc123");
    EXPECT_EQ(bearer_token("BEARER abc123"), "abc123");
    EXPECT_EQ(bearer_token("bEaReR   abc123"), "abc123");
    EXPECT_EQ(bearer_token("Bearer a-b._~+/c=="), "a-b._~+/c==");
}

TEST(BearerToken, AnythingElseCountsAsNoToken) {
    for (const char* value : {"", "Bearer", "Bearer ", "Bearer  ", "Basic abc", "Bearerabc", "Bearer\tabc", "Bearer abc def",
                              "Bearer abc,", "Bearer =abc", "Bearer ab=c", "Bearer ab\"c", "Bearer\xC3\xA9 abc", "Bear abc"})
        EXPECT_EQ(bearer_token(value), "") << value;
    EXPECT_EQ(bearer_token("Bearer " + std::string(kMaxBearerToken, 'a')), std::string(kMaxBearerToken, 'a'));
    EXPECT_EQ(bearer_token("Bearer " + std::string(kMaxBearerToken + 1, 'a')), "");
}

}  // namespace
}  // namespace tarneeb::server
