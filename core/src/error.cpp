// The error vocabulary: names, process exit codes, and the invalid-input shorthand.

#include "routesolve/error.hpp"

#include <string>

namespace routesolve {

std::string_view to_string(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::InvalidInput:
      return "invalid input";
    case ErrorCode::Infeasible:
      return "infeasible";
    case ErrorCode::OutOfMemory:
      return "out of memory";
    case ErrorCode::Device:
      return "device error";
    case ErrorCode::Unsupported:
      return "unsupported";
    case ErrorCode::Internal:
      return "internal error";
  }
  return "unknown error";
}

int exit_code(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::InvalidInput:
      return 2;
    case ErrorCode::Device:
      return 3;
    case ErrorCode::Unsupported:
      return 4;
    default:
      return 1;
  }
}

Error invalid_input(std::string_view where, std::string_view what) {
  std::string message;
  message.reserve(where.size() + what.size() + 2);
  message.append(where).append(": ").append(what);
  return Error(ErrorCode::InvalidInput, message);
}

}  // namespace routesolve
