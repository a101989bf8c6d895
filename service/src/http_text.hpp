#pragma once
// The HTTP-independent pieces of a request and its answer: the target split into path and query
// (percent-decoded), and the response the endpoints build. Beast stays in server.cpp.

#include <map>
#include <string>
#include <string_view>

namespace routesolve::service {

struct Request {
  std::string method;  ///< "GET", "POST", ...
  std::string path;    ///< percent-decoded, without the query
  std::map<std::string, std::string>
      query;  ///< percent-decoded; a repeated key keeps the last value
  std::string body;
  std::string accept;  ///< the Accept header
};

struct Response {
  unsigned status = 200;
  std::string content_type = "application/json";
  std::string body;
};

/// Splits "/a/b?x=1&y=%3B" into path and query; '+' in the query is a space.
void split_target(std::string_view target, std::string& path,
                  std::map<std::string, std::string>& query);

/// Percent-decoding; a malformed escape is kept as it is.
std::string percent_decode(std::string_view text, bool plus_is_space);

/// JSON string literal (quotes included) of any text; invalid UTF-8 bytes are replaced.
std::string json_string(std::string_view text);

/// VROOM's error answer: {"code": code, "error": message}.
Response vroom_error(unsigned status, int code, std::string_view message);

/// OSRM's error answer: {"code": code, "message": message}.
Response osrm_error(unsigned status, std::string_view code, std::string_view message);

}  // namespace routesolve::service
