// `routesolve reoptimise PROBLEM PLAN --now T [--frozen-horizon S]`: the day as it is now
// (PROBLEM: new jobs in, cancelled ones out, shifts as they are) and the plan being driven (PLAN,
// a previous solution); steps beginning before T + S stay as they are, the rest is re-optimised
// from the plan (routesolve/reoptimise.hpp). The result is validated (dispatch::solve_spec)
// before it is written.

#include <fmt/core.h>

#include <memory>
#include <string>

#include "cli_common.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/formats.hpp"
#include "routesolve/io/vroom_json.hpp"
#include "routesolve/reoptimise.hpp"

namespace routesolve::app {
namespace {

struct ReoptimiseArgs {
  std::string problem, plan, output;
  double now = 0, horizon = 0;
  bool cold = false;
  RunOptions run;
};

int run_reoptimise(const ReoptimiseArgs& a) {
  ReoptimiseOptions ro;
  ro.warm = !a.cold;
  Reoptimised r;
  // The plan is read against the problem as the file gives it; the solve is reoptimise's.
  Outcome out =
      solve_one(a.problem, a.run, nullptr, [&](const Problem& problem, const SolveOptions& so) {
        const Solution plan = io::read_vroom_solution(a.plan, problem);
        const double time_scale = problem.spec().scale.time;
        ro.now = static_cast<Duration>(a.now * time_scale);
        ro.frozen_horizon = static_cast<Duration>(a.horizon * time_scale);
        r = reoptimise(problem, plan, ro, so);
        // Vehicles' positions given: the solution is of the problem as it is now.
        return dispatch::Solved{std::move(r.solution), r.problem};
      });
  write_output(out, a.output, io::parse_output_format(a.run.output_format));
  if (!a.run.quiet)
    fmt::print(stderr,
               "{}: {} frozen steps, {} tasks moved from the plan ({} cancelled steps dropped), "
               "cost {:.3f}, {} unassigned, {:.2f} s ({})\n",
               a.problem, r.frozen_steps, r.moved, r.cancelled,
               output_cost(*out.problem, out.solution.summary.cost),
               out.solution.summary.unassigned, out.seconds, ro.warm ? "warm" : "cold");
  if (!a.run.quiet && r.done > 0)
    fmt::print(stderr,
               "{}: {} tasks done by vehicles whose position is given (left out of the new plan)\n",
               a.problem, r.done);
  return 0;
}

}  // namespace

void add_reoptimise_command(CLI::App& app, int* exit_status) {
  auto a = std::make_shared<ReoptimiseArgs>();
  auto* cmd = app.add_subcommand(
      "reoptimise", "Re-optimise a plan under way: freeze what is done, solve the rest");
  cmd->add_option("PROBLEM", a->problem,
                  "The problem as it is now (new jobs in, cancelled jobs out)")
      ->required();
  cmd->add_option("PLAN", a->plan, "The plan being driven (a VROOM JSON solution of the problem)")
      ->required();
  cmd->add_option("--now", a->now, "The time now, in the problem's time units")
      ->required()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--frozen-horizon", a->horizon,
                  "Steps beginning before now + this stay as planned too")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_flag("--cold", a->cold, "Solve the rest from scratch instead of from the plan");
  cmd->add_option("-o,--output", a->output, "Output file (default: standard output)");
  add_run_options(*cmd, a->run);
  cmd->callback([a, exit_status] { *exit_status = run_reoptimise(*a); });
}

}  // namespace routesolve::app
