#pragma once
// The stage profile of `solve --profile` / `--profile-out` and `matrix --profile`: the raw stage
// times a run collects (io, network glue, backend) folded into one fixed list of pipeline stages,
// so every backend's table has the same rows:
//   parse, network_load, snap, matrix, h2d, kernels, d2h, search, validate, output, other
// with the detail (PHAST sub-stages of matrix, construction / local search of search) as parts.

#include <cstdint>
#include <string>
#include <vector>

#include "routesolve/solution.hpp"

namespace routesolve::app {

struct StageRow {
  std::string stage;
  double seconds = 0.0;
  double share = 0.0;           ///< fraction of the table's total, 0..1
  std::vector<StageRow> parts;  ///< finer stages, in the order they were recorded
};

struct StageTable {
  std::string input, backend;
  double total = 0.0;            ///< wall time of the run (or the sum of the stages when unknown)
  std::vector<StageRow> stages;  ///< the fixed pipeline stages, then any unknown ones, then "other"
  std::uint64_t mismatches = 0;  ///< device results that did not match the host check
  std::string fallback;          ///< why the backend that ran is not the one asked for
};

/// Folds raw stage times into the pipeline stages. total_seconds > 0: the run's wall time, and
/// the time no stage accounts for becomes "other"; 0: the total is the sum of the stages.
StageTable make_stage_table(const std::vector<StageTime>& raw, double total_seconds,
                            std::string backend, std::string input);

/// The table as text: one line per stage and indented parts, seconds and percent of the total.
std::string format_stage_table(const StageTable& table);

/// The table as JSON: {"input", "backend", "total", "stages": [{"stage", "seconds", "share",
/// "parts"}], "mismatches", "fallback" (only when it fell back)}.
std::string stage_table_json(const StageTable& table);

}  // namespace routesolve::app
