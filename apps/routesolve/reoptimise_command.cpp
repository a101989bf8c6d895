// `routesolve reoptimise PROBLEM PLAN --now T [--frozen-horizon S]`: the day as it is now
// (PROBLEM: new jobs in, cancelled ones out, shifts as they are) and the plan being driven (PLAN,
// a previous solution); steps beginning before T + S stay as they are, the rest is re-optimised
// from the plan (routesolve/reoptimise.hpp). The result is validated before it is written.

#include <fmt/core.h>

#include <chrono>
#include <memory>
#include <string>

#include "cli_common.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/reoptimise.hpp"
#include "routesolve/validator.hpp"

namespace routesolve::app {
namespace {

struct ReoptimiseArgs {
  std::string problem, plan, output;
  double now = 0, horizon = 0;
  bool cold = false;
  RunOptions run;
};

int run_reoptimise(const ReoptimiseArgs& a) {
  const auto t0 = std::chrono::steady_clock::now();
  Outcome out;
  LoadExtras extras;
  out.problem = load_problem(a.problem, a.run, &extras);
  out.matrices = extras.matrices;
  out.geometry = a.run.geometry || out.problem->spec().geometry;
  const Solution plan = io::read_vroom_solution(a.plan, *out.problem);
  ReoptimiseOptions ro;
  const double time_scale = out.problem->spec().scale.time;
  ro.now = static_cast<Duration>(a.now * time_scale);
  ro.frozen_horizon = static_cast<Duration>(a.horizon * time_scale);
  ro.warm = !a.cold;
  const Reoptimised r = reoptimise(*out.problem, plan, ro, make_solve_options(a.run));
  out.solution = r.solution;
  if (r.problem) out.problem = r.problem;  // vehicles' positions given: the problem as it is now
  const ValidationReport report = validate(*out.problem, out.solution);
  if (!report.ok())
    throw Error(ErrorCode::Internal, a.problem + ": the re-optimised plan failed validation:\n" + report.to_text());
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  write_output(out, a.output, io::parse_output_format(a.run.output_format));
  if (!a.run.quiet)
    fmt::print(stderr, "{}: {} frozen steps, {} tasks moved from the plan ({} cancelled steps dropped), cost {:.3f}, {} unassigned, {:.2f} s ({})\n",
               a.problem, r.frozen_steps, r.moved, r.cancelled, output_cost(*out.problem, out.solution.summary.cost),
               out.solution.summary.unassigned, out.seconds, ro.warm ? "warm" : "cold");
  if (!a.run.quiet && r.done > 0)
    fmt::print(stderr, "{}: {} tasks done by vehicles whose position is given (left out of the new plan)\n", a.problem, r.done);
  return 0;
}

}  // namespace

void add_reoptimise_command(CLI::App& app, int* exit_status) {
  auto a = std::make_shared<ReoptimiseArgs>();
  auto* cmd = app.add_subcommand("reoptimise", "Re-optimise a plan under way: freeze what is done, solve the rest");
  cmd->add_option("PROBLEM", a->problem, "The problem as it is now (new jobs in, cancelled jobs out)")->required();
  cmd->add_option("PLAN", a->plan, "The plan being driven (a VROOM JSON solution of the problem)")->required();
  cmd->add_option("--now", a->now, "The time now, in the problem's time units")->required()->check(CLI::NonNegativeNumber);
  cmd->add_option("--frozen-horizon", a->horizon, "Steps beginning before now + this stay as planned too")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_flag("--cold", a->cold, "Solve the rest from scratch instead of from the plan");
  cmd->add_option("-o,--output", a->output, "Output file (default: standard output)");
  add_run_options(*cmd, a->run);
  cmd->callback([a, exit_status] { *exit_status = run_reoptimise(*a); });
}

}  // namespace routesolve::app
