#include "http_text.hpp"

#include <nlohmann/json.hpp>

namespace routesolve::service {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%' && i + 2 < text.size()) {
      const int hi = hex_value(text[i + 1]), lo = hex_value(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        continue;
      }
    }
    out += plus_is_space && c == '+' ? ' ' : c;
  }
  return out;
}

void split_target(std::string_view target, std::string& path,
                  std::map<std::string, std::string>& query) {
  const std::size_t q = target.find('?');
  path = percent_decode(target.substr(0, q), false);
  query.clear();
  if (q == std::string_view::npos) return;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    if (!pair.empty()) {
      const std::size_t eq = pair.find('=');
      const std::string key = percent_decode(pair.substr(0, eq), true);
      query[key] =
          eq == std::string_view::npos ? std::string() : percent_decode(pair.substr(eq + 1), true);
    }
    if (amp == std::string_view::npos) break;
    rest = rest.substr(amp + 1);
  }
}

std::string json_string(std::string_view text) {
  return nlohmann::json(std::string(text))
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Response vroom_error(unsigned status, int code, std::string_view message) {
  return {status, "application/json",
          "{\"code\":" + std::to_string(code) + ",\"error\":" + json_string(message) + "}"};
}

Response osrm_error(unsigned status, std::string_view code, std::string_view message) {
  return {status, "application/json",
          "{\"code\":" + json_string(code) + ",\"message\":" + json_string(message) + "}"};
}

}  // namespace routesolve::service
