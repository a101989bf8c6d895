// CVRPLIB / TSPLIB .vrp instances and CVRPLIB .sol solutions.
//
// Numbering: node numbers in a .vrp are 1-based; a customer's job id is its node number and its
// matrix index is node number - 1; the depot is not a job.
//
// .sol numbering (checked on every X instance of ../shared/datasets/cvrp/x by recomputing the
// "Cost" line from the matrix): the numbers in "Route #k:" lines are 0-based node indices, i.e.
// matrix indices, so customer "1" is node 2 (the depot being node 1). Read as node numbers they
// give costs 2-5x the Cost line; read as matrix indices they give it exactly. Hence
// job id = .sol number + 1, and the writer prints job id - 1.

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "text.hpp"

namespace routesolve::io {

namespace {

using detail::TextReader;
using detail::split_tokens;
using detail::trim;

// Largest DIMENSION accepted: three dense n x n matrices of 64-bit entries are built.
constexpr std::int64_t kMaxDimension = 100000;

struct KeywordLine {
  std::string key;
  std::string value;
};

// "KEY : value", "KEY: value", "KEY value" or a bare "KEY" / "KEY_SECTION".
KeywordLine split_keyword(std::string_view line) {
  line = trim(line);
  KeywordLine out;
  const std::size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    out.key = std::string(trim(line.substr(0, colon)));
    out.value = std::string(trim(line.substr(colon + 1)));
    // "KEY value : more" is not a keyword form we know; keep the first word as key.
    if (out.key.find_first_of(" \t") != std::string::npos) {
      const auto tokens = split_tokens(line);
      out.key = std::string(tokens.front());
      out.value = std::string(trim(line.substr(tokens.front().size())));
    }
    return out;
  }
  const auto tokens = split_tokens(line);
  out.key = std::string(tokens.front());
  out.value = std::string(trim(line.substr(line.find(tokens.front()) + tokens.front().size())));
  return out;
}

enum class WeightFormat { Function, FullMatrix, LowerRow, UpperRow, LowerDiagRow, UpperDiagRow };

std::optional<WeightFormat> weight_format(std::string_view text) {
  if (text == "FUNCTION") return WeightFormat::Function;
  if (text == "FULL_MATRIX") return WeightFormat::FullMatrix;
  if (text == "LOWER_ROW") return WeightFormat::LowerRow;
  if (text == "UPPER_ROW") return WeightFormat::UpperRow;
  if (text == "LOWER_DIAG_ROW") return WeightFormat::LowerDiagRow;
  if (text == "UPPER_DIAG_ROW") return WeightFormat::UpperDiagRow;
  return std::nullopt;
}

// The (row, column) cells a format lists, in file order, walked one at a time (a tiny file
// claiming a huge DIMENSION must fail at its first missing weight, not after listing n^2 cells);
// each weight also fills its mirror cell except in FULL_MATRIX.
class WeightCells {
 public:
  WeightCells(WeightFormat format, std::size_t n) : format_(format), n_(n) {
    switch (format) {
      case WeightFormat::FullMatrix: count_ = n * n; break;
      case WeightFormat::LowerRow:
      case WeightFormat::UpperRow: count_ = n * (n - std::min<std::size_t>(n, 1)) / 2; break;
      case WeightFormat::LowerDiagRow:
      case WeightFormat::UpperDiagRow: count_ = n * (n + 1) / 2; break;
      case WeightFormat::Function: count_ = 0; break;
    }
    if (format == WeightFormat::LowerRow) i_ = 1;
    if (format == WeightFormat::UpperRow) j_ = 1;
  }
  [[nodiscard]] std::size_t count() const noexcept { return count_; }
  /// The current cell; advance() moves to the next one in file order.
  [[nodiscard]] std::pair<std::size_t, std::size_t> cell() const noexcept { return {i_, j_}; }
  void advance() noexcept {
    ++j_;
    switch (format_) {
      case WeightFormat::FullMatrix: if (j_ == n_) next_row(0); break;
      case WeightFormat::LowerRow: if (j_ == i_) next_row(0); break;
      case WeightFormat::LowerDiagRow: if (j_ > i_) next_row(0); break;
      case WeightFormat::UpperRow: if (j_ == n_) next_row(i_ + 2); break;
      case WeightFormat::UpperDiagRow: if (j_ == n_) next_row(i_ + 1); break;
      case WeightFormat::Function: break;
    }
  }

 private:
  void next_row(std::size_t first_column) noexcept {
    ++i_;
    j_ = first_column;
  }
  WeightFormat format_;
  std::size_t n_;
  std::size_t count_ = 0;
  std::size_t i_ = 0, j_ = 0;
};

struct VrpFile {
  std::string name;
  std::optional<std::size_t> dimension;
  std::optional<std::int64_t> capacity;
  std::optional<std::int64_t> vehicles;
  std::optional<double> distance;
  std::optional<double> service_time;
  std::string edge_weight_type;
  std::size_t edge_weight_type_line = 0;
  std::optional<WeightFormat> edge_weight_format;
  std::vector<std::optional<Coordinates>> coords;  // by node - 1
  bool has_coords = false;
  std::vector<std::optional<std::int64_t>> demands;  // by node - 1
  bool has_demands = false;
  std::vector<std::size_t> depots;  // node numbers
  std::size_t depot_line = 0;
  bool has_depots = false;
  std::optional<Matrix> weights;
};

std::size_t require_dimension(const TextReader& in, const VrpFile& vrp, std::string_view section) {
  if (!vrp.dimension) in.fail(std::string(section) + ": DIMENSION must come before this section");
  return *vrp.dimension;
}

// Reads `n` lines "node v1 v2..." (values_per_line numbers after the node number) of a section.
template <typename OnRow>
void read_node_rows(TextReader& in, std::string_view section, std::size_t n, std::size_t values_per_line,
                    OnRow&& on_row) {
  std::vector<char> seen(n, 0);
  for (std::size_t k = 0; k < n; ++k) {
    if (!in.next_nonblank_line())
      in.fail(std::string(section) + ": the file ends after " + std::to_string(k) + " of " + std::to_string(n) +
              " nodes (DIMENSION)");
    const auto tokens = in.tokens();
    if (!detail::to_int(tokens.front()))
      in.fail(std::string(section) + ": expected " + std::to_string(n) + " nodes (DIMENSION), got " +
              std::to_string(k) + " before '" + std::string(tokens.front()) + "'");
    if (tokens.size() != values_per_line + 1)
      in.fail(std::string(section) + ": expected " + std::to_string(values_per_line + 1) + " values per line, got " +
              std::to_string(tokens.size()));
    const std::int64_t node = in.int_field(tokens[0], std::string(section) + " node");
    if (node < 1 || static_cast<std::size_t>(node) > n)
      in.fail(std::string(section) + ": node " + std::to_string(node) + " outside 1.." + std::to_string(n) +
              " (DIMENSION)");
    const auto index = static_cast<std::size_t>(node - 1);
    if (seen[index]) in.fail(std::string(section) + ": node " + std::to_string(node) + " listed twice");
    seen[index] = 1;
    on_row(index, tokens);
  }
}

VrpFile read_vrp(TextReader& in) {
  VrpFile vrp;
  std::string last_section;  // for lines of data beyond a section's count
  while (in.next_nonblank_line()) {
    const KeywordLine kw = split_keyword(in.line());
    const std::string& key = kw.key;
    const std::string& value = kw.value;
    auto need_value = [&] {
      if (value.empty()) in.fail(key + ": missing value");
    };
    if (key == "EOF") break;
    if (key.ends_with("_SECTION")) last_section = key;
    if (key == "NAME") {
      vrp.name = value;
    } else if (key == "COMMENT") {
      // free text
    } else if (key == "TYPE") {
      need_value();
      if (value != "CVRP" && value != "DCVRP")
        in.fail("TYPE: unsupported problem type '" + value + "' (expected CVRP)");
    } else if (key == "DIMENSION") {
      need_value();
      const std::int64_t d = in.int_field(value, "DIMENSION");
      if (d < 1 || d > kMaxDimension)
        in.fail("DIMENSION: " + std::to_string(d) + " outside 1.." + std::to_string(kMaxDimension));
      if (vrp.dimension) in.fail("DIMENSION: given twice");
      vrp.dimension = static_cast<std::size_t>(d);
    } else if (key == "CAPACITY") {
      need_value();
      const std::int64_t c = in.int_field(value, "CAPACITY");
      if (c < 0) in.fail("CAPACITY: must not be negative, got " + value);
      vrp.capacity = c;
    } else if (key == "VEHICLES") {
      need_value();
      const std::int64_t k = in.int_field(value, "VEHICLES");
      if (k < 1 || k > kMaxDimension) in.fail("VEHICLES: " + value + " outside 1.." + std::to_string(kMaxDimension));
      vrp.vehicles = k;
    } else if (key == "DISTANCE") {
      need_value();
      const double d = in.number_field(value, "DISTANCE");
      if (d < 0) in.fail("DISTANCE: must not be negative, got " + value);
      if (d > detail::kMaxStoredNumber) in.fail("DISTANCE: " + value + " is beyond the largest value stored (1e15)");
      vrp.distance = d;
    } else if (key == "SERVICE_TIME") {
      need_value();
      const double s = in.number_field(value, "SERVICE_TIME");
      if (s < 0) in.fail("SERVICE_TIME: must not be negative, got " + value);
      if (s > detail::kMaxStoredNumber) in.fail("SERVICE_TIME: " + value + " is beyond the largest value stored (1e15)");
      vrp.service_time = s;
    } else if (key == "EDGE_WEIGHT_TYPE") {
      need_value();
      if (value != "EUC_2D" && value != "CEIL_2D" && value != "EXPLICIT")
        in.fail("EDGE_WEIGHT_TYPE: unsupported '" + value + "' (expected EUC_2D, CEIL_2D or EXPLICIT)");
      vrp.edge_weight_type = value;
      vrp.edge_weight_type_line = in.line_number();
    } else if (key == "EDGE_WEIGHT_FORMAT") {
      need_value();
      vrp.edge_weight_format = weight_format(value);
      if (!vrp.edge_weight_format)
        in.fail("EDGE_WEIGHT_FORMAT: unsupported '" + value +
                "' (expected FULL_MATRIX, LOWER_ROW, UPPER_ROW, LOWER_DIAG_ROW or UPPER_DIAG_ROW)");
    } else if (key == "NODE_COORD_SECTION" || key == "DISPLAY_DATA_SECTION") {
      const std::size_t n = require_dimension(in, vrp, key);
      // Coordinates only draw maps and compute EUC_2D weights: NODE_COORD_SECTION wins.
      const bool keep = key == "NODE_COORD_SECTION" || !vrp.has_coords;
      std::vector<std::optional<Coordinates>> coords(n);
      read_node_rows(in, key, n, 2, [&](std::size_t index, const std::vector<std::string_view>& t) {
        coords[index] = Coordinates{in.number_field(t[1], key + " x"), in.number_field(t[2], key + " y")};
      });
      if (keep) {
        vrp.coords = std::move(coords);
        vrp.has_coords = true;
      }
    } else if (key == "DEMAND_SECTION") {
      const std::size_t n = require_dimension(in, vrp, key);
      vrp.demands.assign(n, std::nullopt);
      read_node_rows(in, key, n, 1, [&](std::size_t index, const std::vector<std::string_view>& t) {
        const std::int64_t d = in.int_field(t[1], "DEMAND_SECTION demand");
        if (d < 0) in.fail("DEMAND_SECTION: node " + std::to_string(index + 1) + " has a negative demand");
        vrp.demands[index] = d;
      });
      vrp.has_demands = true;
    } else if (key == "DEPOT_SECTION") {
      const std::size_t n = require_dimension(in, vrp, key);
      vrp.depot_line = in.line_number();
      in.consume_line();
      for (;;) {
        const auto token = in.next_token();
        if (!token) in.fail("DEPOT_SECTION: the file ends before the closing -1");
        const std::int64_t node = in.int_field(token->text, "DEPOT_SECTION node", token->line);
        if (node == -1) break;
        if (node < 1 || static_cast<std::size_t>(node) > n)
          in.fail("DEPOT_SECTION: node " + std::to_string(node) + " outside 1.." + std::to_string(n) + " (DIMENSION)",
                  token->line);
        vrp.depots.push_back(static_cast<std::size_t>(node));
      }
      if (!trim(in.rest()).empty()) in.fail("DEPOT_SECTION: unexpected '" + std::string(trim(in.rest())) + "' after -1");
      vrp.has_depots = true;
    } else if (key == "EDGE_WEIGHT_SECTION") {
      const std::size_t n = require_dimension(in, vrp, key);
      if (!vrp.edge_weight_format || *vrp.edge_weight_format == WeightFormat::Function)
        in.fail("EDGE_WEIGHT_SECTION: EDGE_WEIGHT_FORMAT (FULL_MATRIX, LOWER_ROW, ...) must come before it");
      WeightCells cells(*vrp.edge_weight_format, n);
      const bool symmetric = *vrp.edge_weight_format != WeightFormat::FullMatrix;
      // The weights are kept as they come and the n x n matrix is built once they are all there,
      // so memory follows the file, not the DIMENSION it claims.
      std::vector<std::int64_t> weights;
      weights.reserve(std::min<std::size_t>(cells.count(), std::size_t{1} << 20));
      in.consume_line();
      for (std::size_t k = 0; k < cells.count(); ++k) {
        const auto token = in.next_token();
        const std::string count = std::to_string(cells.count());
        if (!token) in.fail("EDGE_WEIGHT_SECTION: the file ends after " + std::to_string(k) + " of " + count + " weights");
        const auto w = detail::to_double(token->text);
        if (!w)
          in.fail("EDGE_WEIGHT_SECTION: expected " + count + " weights for DIMENSION " + std::to_string(n) + ", got " +
                      std::to_string(k) + " before '" + std::string(token->text) + "'",
                  token->line);
        if (*w < 0 || *w != std::floor(*w) || *w >= static_cast<double>(kUnreachable))
          in.fail("EDGE_WEIGHT_SECTION: weight '" + std::string(token->text) + "' is not a non-negative integer",
                  token->line);
        weights.push_back(static_cast<std::int64_t>(*w));
      }
      if (!trim(in.rest()).empty())
        in.fail("EDGE_WEIGHT_SECTION: more weights than the " + std::to_string(cells.count()) + " expected, starting at '" +
                std::string(split_tokens(in.rest()).front()) + "'");
      Matrix m(n, 0);
      for (const std::int64_t w : weights) {
        const auto [i, j] = cells.cell();
        m(i, j) = w;
        if (symmetric) m(j, i) = w;
        cells.advance();
      }
      vrp.weights = std::move(m);
    } else if (key.size() > 8 && key.ends_with("_SECTION")) {
      in.fail(key + ": unsupported section");
    } else if (in.line().find(':') == std::string_view::npos) {
      if (!last_section.empty() && detail::to_double(key))
        in.fail(last_section + ": more data than expected (DIMENSION " + std::to_string(*vrp.dimension) + "), found '" +
                std::string(trim(in.line())) + "'");
      in.fail("unexpected line '" + std::string(trim(in.line())) + "' (expected a KEYWORD : value or a section)");
    }
    // Other "KEY : value" specification lines (NODE_COORD_TYPE, DISPLAY_DATA_TYPE, ...) do not
    // change the problem and are ignored.
  }
  return vrp;
}

}  // namespace

ProblemSpec parse_cvrplib(std::string_view text, const std::string& source) {
  TextReader in(text, source);
  VrpFile vrp = read_vrp(in);
  const std::size_t end_line = in.line_number();
  auto missing = [&](std::string_view what) { in.fail(std::string("missing ") + std::string(what), end_line); };

  if (!vrp.dimension) missing("DIMENSION");
  if (!vrp.capacity) missing("CAPACITY");
  if (vrp.edge_weight_type.empty()) missing("EDGE_WEIGHT_TYPE");
  if (!vrp.has_demands) missing("DEMAND_SECTION");
  if (!vrp.has_depots) missing("DEPOT_SECTION");
  const std::size_t n = *vrp.dimension;

  if (vrp.depots.empty()) in.fail("DEPOT_SECTION: no depot listed", vrp.depot_line);
  if (vrp.depots.size() > 1)
    in.fail_with(ErrorCode::Unsupported, "DEPOT_SECTION: several depots (multi-depot CVRPLIB) are not supported",
                 vrp.depot_line);
  const std::size_t depot = vrp.depots.front() - 1;
  if (*vrp.demands[depot] != 0)
    in.fail("DEMAND_SECTION: the depot (node " + std::to_string(depot + 1) + ") has demand " +
                std::to_string(*vrp.demands[depot]) + ", expected 0",
            end_line);

  Matrix weights;
  if (vrp.edge_weight_type == "EXPLICIT") {
    if (!vrp.weights) missing("EDGE_WEIGHT_SECTION (EDGE_WEIGHT_TYPE EXPLICIT)");
    weights = std::move(*vrp.weights);
  } else {
    if (!vrp.has_coords)
      missing("NODE_COORD_SECTION (EDGE_WEIGHT_TYPE " + vrp.edge_weight_type + ")");
    const bool ceil = vrp.edge_weight_type == "CEIL_2D";
    weights = Matrix(n, 0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        const double dx = vrp.coords[i]->lon - vrp.coords[j]->lon;
        const double dy = vrp.coords[i]->lat - vrp.coords[j]->lat;
        try {
          weights(i, j) = weights(j, i) = ceil ? detail::euclidean_ceiled(dx, dy) : detail::euclidean_rounded(dx, dy, 1);
        } catch (const Error& e) {
          in.fail(std::string("NODE_COORD_SECTION: nodes ") + std::to_string(i + 1) + " and " + std::to_string(j + 1) +
                  ": " + e.what());
        }
      }
  }

  ProblemSpec spec;
  spec.name = vrp.name;
  spec.planar_coordinates = true;
  spec.source = source;
  auto location = [&](std::size_t index) {
    LocationSpec loc;
    loc.index = index;
    if (vrp.has_coords) loc.coords = vrp.coords[index];
    return loc;
  };

  const Duration service = vrp.service_time ? static_cast<Duration>(std::llround(*vrp.service_time)) : 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i == depot) continue;
    JobSpec job;
    job.id = i + 1;
    job.location = location(i);
    job.service = service;
    job.delivery = Amount{*vrp.demands[i]};
    spec.jobs.push_back(std::move(job));
  }

  const std::size_t fleet = vrp.vehicles ? static_cast<std::size_t>(*vrp.vehicles) : std::max<std::size_t>(1, n - 1);
  spec.vehicles.reserve(fleet);
  for (std::size_t k = 0; k < fleet; ++k) {
    VehicleSpec v;
    v.id = k + 1;
    v.profile = "car";
    v.start = location(depot);
    v.end = location(depot);
    v.capacity = Amount{*vrp.capacity};
    if (vrp.distance) {
      // Route lengths are integers, so "length <= DISTANCE" equals "length <= floor(DISTANCE)".
      const auto limit = static_cast<std::int64_t>(std::floor(*vrp.distance));
      v.max_distance = limit;
      v.max_travel_time = limit;  // travel time = distance in CVRPLIB
    }
    spec.vehicles.push_back(std::move(v));
  }

  ProfileMatrices matrices;
  matrices.durations = weights;
  matrices.distances = weights;
  matrices.costs = std::move(weights);
  spec.matrices.emplace("car", std::move(matrices));
  spec.scale = UnitScale{1.0, 1.0, 1.0};
  return spec;
}

namespace {

// "Cost N" in output units, when the file has one.
std::optional<double> read_sol_cost(TextReader& in, std::string_view line) {
  const auto tokens = split_tokens(line);
  if (tokens.size() != 2) in.fail("Cost: expected 'Cost <number>'");
  return in.number_field(tokens[1], "Cost");
}

}  // namespace

Solution parse_cvrplib_solution(std::string_view text, const std::string& source, const Problem& problem) {
  TextReader in(text, source);
  Solution solution;
  const std::size_t dims = problem.dimensions();
  bool has_cost = false;
  std::size_t route_number = 0;
  while (in.next_nonblank_line()) {
    const std::string_view line = trim(in.line());
    if (line.starts_with("Route") || line.starts_with("route")) {
      const std::size_t colon = line.find(':');
      if (colon == std::string_view::npos) in.fail("Route: expected 'Route #k: <customers>'");
      ++route_number;
      const auto numbers = split_tokens(line.substr(colon + 1));
      if (numbers.empty()) continue;  // an empty route uses no vehicle
      const std::size_t v = solution.routes.size();
      if (v >= problem.vehicles().size())
        in.fail("Route: more routes than the " + std::to_string(problem.vehicles().size()) + " vehicles of the problem");
      const Vehicle& vehicle = problem.vehicle(v);
      Route route;
      route.vehicle = v;
      route.vehicle_id = vehicle.id;
      route.delivery = Amount(dims);
      route.pickup = Amount(dims);
      if (vehicle.start != kNone) {
        Step start;
        start.type = StepType::Start;
        start.location = vehicle.start;
        start.load = Amount(dims);
        route.steps.push_back(std::move(start));
      }
      for (const std::string_view number : numbers) {
        const std::int64_t k = in.int_field(number, "Route #" + std::to_string(route_number) + " customer");
        if (k < 0) in.fail("Route #" + std::to_string(route_number) + ": negative customer " + std::string(number));
        const Id id = static_cast<Id>(k) + 1;  // .sol numbers are node numbers - 1
        const std::size_t task = problem.find_task(TaskType::Job, id);
        if (task == kNone)
          in.fail("Route #" + std::to_string(route_number) + ": customer " + std::string(number) + " (job " +
                  std::to_string(id) + ") is not in the problem");
        Step step;
        step.type = StepType::Job;
        step.id = id;
        step.task = task;
        step.location = problem.task(task).location;
        step.load = Amount(dims);
        route.steps.push_back(std::move(step));
      }
      if (vehicle.end != kNone) {
        Step end;
        end.type = StepType::End;
        end.location = vehicle.end;
        end.load = Amount(dims);
        route.steps.push_back(std::move(end));
      }
      solution.routes.push_back(std::move(route));
    } else if (line.starts_with("Cost") || line.starts_with("cost")) {
      if (has_cost) in.fail("Cost: given twice");
      read_sol_cost(in, line);
      has_cost = true;
    }
    // Other lines ("Time 12.3", comments) carry nothing the solution needs.
  }
  if (route_number == 0) in.fail("no 'Route #k:' line", in.line_number());
  solution.summary.routes = solution.routes.size();
  solution.summary.delivery = Amount(dims);
  solution.summary.pickup = Amount(dims);
  return solution;
}

std::optional<double> cvrplib_solution_cost(std::string_view text, const std::string& source) {
  TextReader in(text, source);
  std::optional<double> cost;
  while (in.next_nonblank_line()) {
    const std::string_view line = trim(in.line());
    if (line.starts_with("Cost") || line.starts_with("cost")) {
      if (cost) in.fail("Cost: given twice");
      cost = read_sol_cost(in, line);
    }
  }
  return cost;
}

std::string cvrplib_solution_to_string(const Problem& problem, const Solution& solution) {
  std::ostringstream out;
  std::size_t k = 0;
  for (const Route& route : solution.routes) {
    std::string line;
    for (const Step& step : route.steps) {
      if (step.type != StepType::Job && step.type != StepType::Pickup && step.type != StepType::Delivery) continue;
      if (step.id == 0)
        throw Error(ErrorCode::Unsupported,
                    problem.spec().source + ": job id 0 cannot be written in CVRPLIB .sol numbering (id - 1)");
      line += ' ';
      line += std::to_string(step.id - 1);
    }
    if (line.empty()) continue;
    out << "Route #" << ++k << ':' << line << '\n';
  }
  const double scale = problem.cost_scale();
  if (scale == 1.0) {
    out << "Cost " << solution.summary.cost << '\n';
  } else {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.3f", static_cast<double>(solution.summary.cost) / scale);
    out << "Cost " << buffer << '\n';
  }
  return out.str();
}

}  // namespace routesolve::io
