#include "core/shared_opt.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using ncdx::core::Interner;
using ncdx::core::SharedOpt;

TEST(SharedOpt, ReadsLikeAnOptional) {
  SharedOpt<std::string> none, s = "completed", t = std::string("started");
  EXPECT_FALSE(none);
  EXPECT_TRUE(none == std::nullopt);
  EXPECT_EQ(none.value_or("x"), "x");
  EXPECT_THROW((void)none.value(), std::bad_optional_access);
  EXPECT_TRUE(s == "completed");
  EXPECT_FALSE(s == "started");
  EXPECT_FALSE(none == "completed");
  EXPECT_EQ(s->size(), 9u);
  std::optional<std::string> o = t;
  EXPECT_EQ(o, "started");
  EXPECT_TRUE(SharedOpt<std::string>(std::optional<std::string>()) == none);
  EXPECT_TRUE(SharedOpt<std::string>("a") == SharedOpt<std::string>("a"));  // by value
  t.reset();
  EXPECT_FALSE(t.has_value());
}

TEST(SharedOpt, InternerKeepsOneCopyPerValue) {
  Interner<std::vector<long long>> shapes;
  auto a = shapes(std::vector<long long>{4, 4096});
  auto b = shapes(std::vector<long long>{4, 4096});
  auto c = shapes(std::vector<long long>{1});
  EXPECT_EQ(&*a, &*b);
  EXPECT_NE(&*a, &*c);
  EXPECT_FALSE(shapes(std::nullopt));
}
