#pragma once
// The resume protocol of `routesolve batch --resume-batch`: OUT_DIR/batch_status.json, rewritten
// atomically after every file, holds the options that shape a solution and, per input file, its
// size and modification time, its status and its summary figures. A re-run under the same
// options keeps the files recorded "ok" whose input is unchanged and whose solution file is
// still there.
//
//   {"version": 1, "options": "<key>", "files": {"<input path>": {"status": "ok" | "failed",
//    "input": "<size>:<mtime>", "output": "<solution file name>", "tasks": N, "routes": N,
//    "unassigned": N, "cost": X, "seconds": X}, ...}}

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace routesolve::io {

inline constexpr const char* kBatchStatusFile = "batch_status.json";

/// One input file's record.
struct BatchRecord {
  std::string status = "ok";  ///< "ok", or "failed" (an interrupted solve is not "ok" either)
  std::string input;          ///< input_stamp() of the file when it was solved
  std::string output;         ///< the solution's file name in the output folder
  std::size_t tasks = 0, routes = 0, unassigned = 0;
  double cost = 0.0, seconds = 0.0;
};

/// Size and modification time of an input, to notice a file changed since it was solved; empty
/// when the file cannot be read.
std::string input_stamp(const std::filesystem::path& file);

/// The status of one batch run in an output folder, and what it may keep of the previous run's.
class BatchStatus {
 public:
  /// This run's status (no file yet) in `out_dir`, under the options key `options`.
  BatchStatus(const std::filesystem::path& out_dir, std::string options);

  /// Reads the previous run's status file when there is one. Returns why it is not used (written
  /// under other options, or unreadable), empty when it is used or there is none.
  std::string load_previous();

  /// The previous record of `file` when it may be kept: "ok", input unchanged (`stamp`, not
  /// empty), its solution `output` still there. A kept record is this run's record too.
  std::optional<BatchRecord> keep(const std::string& file, const std::string& stamp,
                                  const std::filesystem::path& output);

  /// Records a file's result and rewrites the status file (temporary file + rename).
  void record(const std::string& file, const BatchRecord& record);

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

 private:
  void write() const;

  std::filesystem::path path_;
  std::string options_;
  std::map<std::string, BatchRecord> previous_, current_;
};

}  // namespace routesolve::io
