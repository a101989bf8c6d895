#pragma once
// The one exception type of routesolve: a code plus a message that names the file, the
// line or JSON path, and the field. Status codes exist only at the process boundary.

#include <stdexcept>
#include <string>
#include <string_view>

namespace routesolve {

enum class ErrorCode {
  InvalidInput,  ///< malformed or inconsistent input (exit code 2)
  Infeasible,    ///< the problem admits no solution under the requested rules
  OutOfMemory,   ///< host or device allocation failed
  Device,        ///< CUDA device missing, failing, or asked for where none exists
  Unsupported,   ///< a valid feature this build or backend does not provide
  Internal,      ///< a bug: an invariant of routesolve itself broke
};

/// Human-readable name of an error code ("invalid input", ...).
std::string_view to_string(ErrorCode code) noexcept;

/// Process exit code for an error code: 2 for invalid input, 3 device, 4 unsupported, 1 otherwise.
int exit_code(ErrorCode code) noexcept;

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  [[nodiscard]] ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

/// Shorthand for the most common error: `throw invalid_input("vehicles[2].capacity", "...")`.
Error invalid_input(std::string_view where, std::string_view what);

}  // namespace routesolve
