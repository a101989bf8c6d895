// The fleet-file subcommands: solve and validate (batch: batch_command.cpp).

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "routesolve/distributed/world.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/benchmark_formats.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/validator.hpp"

namespace fs = std::filesystem;

namespace routesolve::app {
namespace {

int run_solve(const std::string& input, const std::string& output, const RunOptions& o) {
  ProgressBar bar(!o.quiet);
  Outcome out = solve_one(input, o, &bar);
  bar.finish();
  if (distributed::rank() != 0) return 0;  // --decompose under mpirun: rank 0 writes the solution
  const auto t_output = std::chrono::steady_clock::now();
  write_output(out, output, io::parse_output_format(o.output_format));
  const double output_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_output).count();
  out.solution.profile.push_back({"output", output_seconds});
  if (!o.quiet) {
    // Iterations (when the backend counts them) let engineers compare search speed across runs.
    const std::string iterations = out.solution.iterations > 0
                                       ? fmt::format(", {} iterations", out.solution.iterations)
                                       : std::string();
    fmt::print(stderr, "{}: cost {:.3f}, {} routes, {} unassigned, {:.2f} s ({}){}\n", input,
               output_cost(*out.problem, out.solution.summary.cost), out.solution.summary.routes,
               out.solution.summary.unassigned, out.seconds, out.solution.backend, iterations);
    if (g_stop.load()) fmt::print(stderr, "interrupted: wrote the best solution found so far\n");
  }
  if (o.profile || !o.profile_out.empty())
    report_profile(out.solution, o, input, out.seconds + output_seconds);
  return 0;
}

int run_validate(const std::string& input, const std::string& solution_file, const RunOptions& o,
                 const std::string& solution_format) {
  ProblemPtr problem = load_problem(input, o);
  const fs::path sol(solution_file);
  const bool is_sol =
      solution_format == "sol" || (solution_format == "auto" && sol.extension() == ".sol");
  Solution solution;
  ValidateOptions vo;
  std::optional<io::CvrplibCost> claimed;
  if (is_sol) {
    const std::string text = io::read_text_file(sol);
    solution = io::parse_cvrplib_solution(text, sol.string(), *problem);
    claimed = io::cvrplib_solution_cost(text, sol.string());
    vo.check_figures = false;  // .sol files carry routes only: their figures are recomputed below
  } else {
    solution = io::read_vroom_solution(sol, *problem);
  }
  const ValidationReport report = validate(*problem, solution, vo);
  if (!report.ok()) {
    fmt::print("{}: {} violation(s)\n{}", solution_file, report.violations.size(),
               report.to_text());
    return 1;
  }
  if (is_sol) {
    // The routes' figures from the instance alone (core's schedule), checked whole by the
    // validator, then the file's Cost line against them to the digits it gives.
    auto scheduled = schedule_routes(*problem, solution);
    if (const std::size_t* refused = std::get_if<std::size_t>(&scheduled)) {
      fmt::print("{}: Route #{}: not a feasible route of vehicle {}\n", solution_file, *refused + 1,
                 problem->vehicle(solution.routes[*refused].vehicle).id);
      return 1;
    }
    solution = std::get<Solution>(std::move(scheduled));
    const ValidationReport whole = validate(*problem, solution);
    if (!whole.ok()) {
      fmt::print("{}: {} violation(s)\n{}", solution_file, whole.violations.size(),
                 whole.to_text());
      return 1;
    }
    const double cost = output_cost(*problem, solution.summary.cost);
    if (claimed) {
      const double tolerance =
          0.5 * std::pow(10.0, -claimed->decimals) + 0.5 / problem->cost_scale();
      if (std::abs(claimed->value - cost) > tolerance) {
        fmt::print(
            "{}:{}: Cost: the file says {}, its routes cost {:.3f} (recomputed from the "
            "instance)\n",
            solution_file, claimed->line, claimed->value, cost);
        return 1;
      }
    }
  }
  if (!o.quiet)
    fmt::print("{}: valid: {} routes, {} unassigned, cost {:.3f}{}\n", solution_file,
               solution.routes.size(), solution.unassigned.size(),
               output_cost(*problem, solution.summary.cost),
               claimed ? ", as its Cost line says" : "");
  return 0;
}

}  // namespace

void add_fleet_commands(CLI::App& app, int* exit_status) {
  struct State {
    RunOptions solve_opts, validate_opts;
    std::string input, output, solution_file, solution_format = "auto";
  };
  auto s = std::make_shared<State>();

  auto* solve_cmd = app.add_subcommand("solve", "Solve one fleet file");
  solve_cmd
      ->add_option("INPUT", s->input, "Fleet file (VROOM JSON, CVRPLIB .vrp, Solomon, Li & Lim)")
      ->required();
  solve_cmd->add_option("-o,--output", s->output, "Output file (default: standard output)");
  add_run_options(*solve_cmd, s->solve_opts);
  solve_cmd->add_option("--profile-out", s->solve_opts.profile_out,
                        "Write the stage profile as JSON: {input, backend, total, stages: [{stage, "
                        "seconds, share, parts}]}");
  solve_cmd->add_option(
      "--trace", s->solve_opts.trace,
      "Write the best solution over time as CSV (elapsed_s,cost,routes,unassigned; one row per "
      "improvement, seconds since the solve began)");
  solve_cmd->add_option(
      "--checkpoint", s->solve_opts.checkpoint,
      "Write the search state to this file (atomically, with a checksum) from time to time; "
      "cpu backend (auto picks it)");
  solve_cmd
      ->add_option("--checkpoint-every", s->solve_opts.checkpoint_every,
                   "Seconds between checkpoints")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  solve_cmd->add_option(
      "--resume", s->solve_opts.resume,
      "Continue the solve a --checkpoint file recorded (its seed, threads, objective and "
      "time limit unless given; the time already spent counts against the limit)");
  solve_cmd->add_flag(
      "-c,--check", s->solve_opts.check,
      "Plan mode: every vehicle's steps are its whole route; report VROOM's violations per step "
      "and route instead of solving");
  solve_cmd->add_flag(
      "--decompose", s->solve_opts.decompose,
      "Very large problems under mpirun: the plan is cut into groups of nearby routes that the "
      "ranks improve as subproblems, merged after every round (docs/SCALING.md); cpu backend");
  solve_cmd
      ->add_option("--decompose-rounds", s->solve_opts.decompose_rounds,
                   "--decompose: rounds (default 3)")
      ->check(CLI::Range(1u, 1000u));
  solve_cmd->callback([s, solve_cmd, exit_status] {
    RunOptions& o = s->solve_opts;
    o.seed_given = solve_cmd->count("--seed") > 0;
    o.threads_given = solve_cmd->count("--threads") > 0;
    o.time_limit_given = solve_cmd->count("--time-limit") > 0;
    o.objective_given = solve_cmd->count("--objective") > 0;
    if (o.decompose && (o.check || !o.checkpoint.empty() || !o.resume.empty()))
      throw invalid_input("--decompose",
                          "cannot be combined with --check, --checkpoint or --resume");
    if (solve_cmd->count("--checkpoint-every") > 0 && o.checkpoint.empty())
      throw invalid_input("--checkpoint-every", "needs --checkpoint FILE");
    *exit_status = run_solve(s->input, s->output, o);
  });

  add_batch_command(app, exit_status);  // batch_command.cpp, listed between solve and validate

  auto* validate_cmd = app.add_subcommand("validate", "Check a solution against its problem");
  validate_cmd->add_option("INPUT", s->input, "Fleet file")->required();
  validate_cmd
      ->add_option("SOLUTION", s->solution_file, "Solution (VROOM JSON output or CVRPLIB .sol)")
      ->required();
  validate_cmd->add_option("--format", s->validate_opts.format, "Input format")
      ->check(CLI::IsMember(io::input_format_names()));
  validate_cmd->add_option("--solution-format", s->solution_format, "Solution format")
      ->check(CLI::IsMember({"auto", "json", "sol"}));
  validate_cmd->add_flag("--truncate-distances", s->validate_opts.truncate,
                         "Solomon / Li & Lim one-decimal arcs");
  validate_cmd->add_option("--network", s->validate_opts.network,
                           "Road network the solution was solved on (solve --network)");
  validate_cmd
      ->add_option("--max-snap", s->validate_opts.max_snap, "With --network: as given to solve")
      ->check(CLI::NonNegativeNumber);
  validate_cmd->add_flag("-q,--quiet", s->validate_opts.quiet, "Print violations only");
  validate_cmd->callback([s, exit_status] {
    *exit_status = run_validate(s->input, s->solution_file, s->validate_opts, s->solution_format);
  });
}

}  // namespace routesolve::app
