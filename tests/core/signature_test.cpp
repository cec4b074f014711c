// The bench signature pins the engine's behaviour: it changes only when the rules engine
// plays differently (legal actions, scoring, dealing, match flow). If a change is meant to
// alter behaviour, update the number here and say why in the commit.
#include <gtest/gtest.h>

#include "../test_util.hpp"
#include "tarneeb/core/bench.hpp"

TEST(BenchSignature, MatchesTheStoredValue) {
    // Thousands of whole matches: the release build's run checks the number; the engine's
    // memory is checked by the sanitizers on the rest of the suite.
    if (tarneeb::test::under_sanitizers(false, true)) GTEST_SKIP() << "run by the release build";
    EXPECT_EQ(tarneeb::engine_signature(), 244139089u);
}
