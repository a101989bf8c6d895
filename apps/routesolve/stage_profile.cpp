// Stage tables for --profile and --profile-out (see stage_profile.hpp).

#include "stage_profile.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>

namespace routesolve::app {
namespace {

/// The pipeline stages, in pipeline order (docs/CLI.md, "Stage profile").
constexpr std::string_view kStages[] = {"parse",   "network_load", "snap",   "matrix",   "h2d",
                                        "kernels", "d2h",          "search", "validate", "output"};

struct Placement {
  std::string_view stage;  ///< pipeline stage
  std::string_view part;   ///< "" when the raw stage is the whole pipeline stage
};

/// Where a raw stage name (as the io glue and the backends record it) goes in the table.
Placement place(std::string_view raw) {
  struct Entry {
    std::string_view raw;
    Placement placement;
  };
  static constexpr Entry kMap[] = {
      {"parse", {"parse", "read"}},
      {"problem", {"parse", "problem"}},
      {"network_load", {"network_load", ""}},
      {"snap", {"snap", ""}},
      {"matrix", {"matrix", ""}},
      {"ch_load", {"matrix", "ch_load"}},
      {"matrix_selection", {"matrix", "selection"}},
      {"matrix_upward", {"matrix", "upward"}},
      {"matrix_h2d", {"matrix", "h2d"}},
      {"matrix_sweeps", {"matrix", "sweeps"}},
      {"matrix_d2h", {"matrix", "d2h"}},
      {"matrix_unpack", {"matrix", "unpack"}},
      {"h2d", {"h2d", ""}},
      {"kernel", {"kernels", ""}},
      {"kernels", {"kernels", ""}},
      {"d2h", {"d2h", ""}},
      {"construction", {"search", "construction"}},
      {"local_search", {"search", "local_search"}},
      {"host_search", {"search", "host_search"}},
      {"pack", {"search", "pack"}},
      {"insertion_check", {"search", "device_check"}},
      {"search", {"search", ""}},
      {"check", {"validate", "device_check"}},
      {"validate", {"validate", "validator"}},
      {"output", {"output", ""}},
      {"write", {"output", ""}},
  };
  for (const Entry& e : kMap)
    if (e.raw == raw) return e.placement;
  return {raw, ""};  // unknown: a row of its own
}

}  // namespace

StageTable make_stage_table(const std::vector<StageTime>& raw, double total_seconds,
                            std::string backend, std::string input) {
  StageTable t;
  t.backend = std::move(backend);
  t.input = std::move(input);
  for (std::string_view s : kStages) t.stages.push_back({std::string(s), 0.0, 0.0, {}});
  const auto row_of = [&t](std::string_view stage) -> StageRow& {
    for (StageRow& r : t.stages)
      if (r.stage == stage) return r;
    // A stage the table does not know: a row of its own after the pipeline stages.
    t.stages.push_back({std::string(stage), 0.0, 0.0, {}});
    return t.stages.back();
  };
  for (const StageTime& st : raw) {
    const Placement p = place(st.stage);
    StageRow& row = row_of(p.stage);
    row.seconds += st.seconds;
    if (p.part.empty()) continue;
    auto it = std::find_if(row.parts.begin(), row.parts.end(),
                           [&](const StageRow& r) { return r.stage == p.part; });
    if (it == row.parts.end())
      row.parts.push_back({std::string(p.part), st.seconds, 0.0, {}});
    else
      it->seconds += st.seconds;
  }
  double sum = 0.0;
  for (const StageRow& r : t.stages) sum += r.seconds;
  if (total_seconds > 0.0) {
    t.stages.push_back({"other", std::max(0.0, total_seconds - sum), 0.0, {}});
    t.total = std::max(total_seconds, sum);
  } else {
    t.total = sum;
  }
  const auto share = [&t](double s) { return t.total > 0.0 ? s / t.total : 0.0; };
  for (StageRow& r : t.stages) {
    r.share = share(r.seconds);
    for (StageRow& p : r.parts) p.share = share(p.seconds);
  }
  return t;
}

std::string format_stage_table(const StageTable& t) {
  std::string out =
      fmt::format("stage profile ({}{}{}):\n", t.backend, t.input.empty() ? "" : ", ", t.input);
  out += fmt::format("  {:<22} {:>10} {:>7}\n", "stage", "seconds", "share");
  for (const StageRow& r : t.stages) {
    out += fmt::format("  {:<22} {:>10.4f} {:>6.1f}%\n", r.stage, r.seconds, 100.0 * r.share);
    for (const StageRow& p : r.parts)
      out += fmt::format("    {:<20} {:>10.4f} {:>6.1f}%\n", p.stage, p.seconds, 100.0 * p.share);
  }
  out += fmt::format("  {:<22} {:>10.4f} {:>6.1f}%\n", "total", t.total, t.total > 0 ? 100.0 : 0.0);
  if (t.mismatches > 0)
    out += fmt::format("  device results that did not check out: {}\n", t.mismatches);
  if (!t.fallback.empty()) out += fmt::format("  fallback: {}\n", t.fallback);
  return out;
}

std::string stage_table_json(const StageTable& t) {
  using nlohmann::ordered_json;
  const auto row_json = [](const StageRow& r) {
    return ordered_json{{"stage", r.stage}, {"seconds", r.seconds}, {"share", r.share}};
  };
  ordered_json stages = ordered_json::array();
  for (const StageRow& r : t.stages) {
    ordered_json j = row_json(r);
    ordered_json parts = ordered_json::array();
    for (const StageRow& p : r.parts) parts.push_back(row_json(p));
    j["parts"] = std::move(parts);
    stages.push_back(std::move(j));
  }
  ordered_json doc{{"input", t.input},
                   {"backend", t.backend},
                   {"total", t.total},
                   {"stages", std::move(stages)},
                   {"mismatches", t.mismatches}};
  if (!t.fallback.empty()) doc["fallback"] = t.fallback;
  return doc.dump(2) + "\n";
}

}  // namespace routesolve::app
