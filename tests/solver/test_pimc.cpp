#include <gtest/gtest.h>
TEST(Pimc, Placeholder) {}
