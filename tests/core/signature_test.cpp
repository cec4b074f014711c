// The bench signature pins the engine's behaviour: it changes only when the rules engine
// plays differently (legal actions, scoring, dealing, match flow). If a change is meant to
// alter behaviour, update the number here and say why in the commit.
#include <gtest/gtest.h>

#include "tarneeb/core/bench.hpp"

TEST(BenchSignature, MatchesTheStoredValue) { EXPECT_EQ(tarneeb::engine_signature(), 244139089u); }
