// placeholder, replaced below
#include <gtest/gtest.h>
TEST(Ws, Placeholder) {}
