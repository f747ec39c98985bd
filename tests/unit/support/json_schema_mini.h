#pragma once
// A tiny JSON Schema validator for the subset docs/schema/*.schema.json use: type (string or
// list), required, properties, items, enum, const, minimum. Anything else is ignored — this is
// not a full JSON Schema implementation, and the schema files say so.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace testing_schema {

inline bool type_ok(const nlohmann::json& v, const std::string& t) {
  if (t == "object") return v.is_object();
  if (t == "array") return v.is_array();
  if (t == "string") return v.is_string();
  if (t == "integer") return v.is_number_integer();
  if (t == "number") return v.is_number();
  if (t == "boolean") return v.is_boolean();
  if (t == "null") return v.is_null();
  return false;
}

inline void validate_at(const nlohmann::json& s, const nlohmann::json& v, const std::string& path, std::vector<std::string>& errors) {
  if (s.contains("type")) {
    bool ok = false;
    if (s["type"].is_array())
      for (const auto& t : s["type"]) ok |= type_ok(v, t.get<std::string>());
    else
      ok = type_ok(v, s["type"].get<std::string>());
    if (!ok) {
      errors.push_back(path + ": type " + s["type"].dump() + " expected, got " + v.dump().substr(0, 60));
      return;
    }
  }
  if (s.contains("const") && v != s["const"]) errors.push_back(path + ": expected " + s["const"].dump());
  if (s.contains("enum")) {
    bool found = false;
    for (const auto& e : s["enum"]) found |= e == v;
    if (!found) errors.push_back(path + ": " + v.dump() + " not in " + s["enum"].dump());
  }
  if (s.contains("minimum") && v.is_number() && v.get<double>() < s["minimum"].get<double>()) errors.push_back(path + ": below minimum");
  if (v.is_object()) {
    if (s.contains("required"))
      for (const auto& r : s["required"])
        if (!v.contains(r.get<std::string>())) errors.push_back(path + ": missing required '" + r.get<std::string>() + "'");
    if (s.contains("properties"))
      for (const auto& [k, sub] : s["properties"].items())
        if (v.contains(k)) validate_at(sub, v[k], path + "." + k, errors);
  }
  if (v.is_array() && s.contains("items"))
    for (std::size_t i = 0; i < v.size(); ++i) validate_at(s["items"], v[i], path + "[" + std::to_string(i) + "]", errors);
}

inline std::vector<std::string> validate(const nlohmann::json& schema, const nlohmann::json& value) {
  std::vector<std::string> errors;
  validate_at(schema, value, "$", errors);
  return errors;
}

}  // namespace testing_schema
