#include "core/json.h"

#include <gtest/gtest.h>

#include <sstream>

using ncdx::core::dump_json;
using ncdx::core::write_json_streaming;

namespace {

// The streamed form of `whole`, its `key` array handed out one element at a time.
std::string streamed(nlohmann::json whole, const std::string& key) {
  nlohmann::json items = whole[key];
  whole[key] = nlohmann::json::array();
  std::size_t i = 0;
  std::ostringstream out;
  write_json_streaming(out, whole, key, [&](nlohmann::json& e) {
    if (i == items.size()) return false;
    e = items[i++];
    return true;
  });
  return out.str();
}

}  // namespace

TEST(JsonStream, SameBytesAsTheWholeDump) {
  nlohmann::json j = {{"schema", "x/1"},
                      {"rows", {{{"a", 1}, {"b", {1, 2, {{"c", "d\ne"}}}}}, nlohmann::json::object(), 3, "s"}},
                      {"z", {{"rows", nlohmann::json::array()}}},
                      {"text", "\n  \"rows\": []"}};
  EXPECT_EQ(streamed(j, "rows"), dump_json(j));
  j["rows"] = nlohmann::json::array();
  EXPECT_EQ(streamed(j, "rows"), dump_json(j));
  j["bad"] = std::string("\xff\xfe");  // invalid UTF-8 replaced as dump_json replaces it
  j["rows"] = {std::string("\xc3")};
  EXPECT_EQ(streamed(j, "rows"), dump_json(j));
}
