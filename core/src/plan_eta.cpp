// Plan mode's times of a checked route (plan_eta.hpp): the integer programme and its three rounds.
//
// Variables, for the N steps 0 (start) .. N-1 (end): t_i the service start, y_i >= 0 the
// violation, d_i >= 0 the travel done between steps i and i + 1, and for a step with several
// windows a binary x_ik per window (exactly one chosen). Constraints:
//   t_{i+1} - t_i - d_i >= action_i              (precedence; the slack is waiting)
//   sum of d over a leg's steps = the leg's travel (breaks split a leg anywhere)
//   t_i + y_i >= start of the chosen window      (lead time)
//   t_i - y_i <= end of the chosen window        (delay)
//   earliest_i <= t_i <= latest_i                (service_at / after / before, hard)
// Times are shifted by an origin so that GLPK works with small numbers, and bounded above by a
// horizon past which no optimum goes (after every datum and a whole route without waiting).

#include "plan_eta.hpp"

#include <glpk.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "routesolve/error.hpp"

namespace routesolve::plan_eta {
namespace {

bool finite(Duration t) { return t < kMaxTime; }

/// The GLPK problem, freed however the function leaves.
struct LpDeleter {
  void operator()(glp_prob* lp) const { glp_delete_prob(lp); }
};
using Lp = std::unique_ptr<glp_prob, LpDeleter>;

class Programme {
 public:
  explicit Programme(const Route& r)
      : r_(r), n_(static_cast<int>(r.steps.size())), lp_(glp_create_prob()) {
    set_origin_and_horizon();
    add_columns();
    add_rows();
  }

  Times solve() {
    glp_prob* lp = lp_.get();
    // Round 1: weight x violations + makespan.
    for (int i = 0; i < n_; ++i) glp_set_obj_coef(lp, y(i), r_.weight);
    glp_set_obj_coef(lp, t(n_ - 1), 1.0);
    glp_set_obj_coef(lp, t(0), -1.0);
    run();
    fix(sum_y_row_);
    fix(makespan_row_);
    // Round 2: the tasks' and breaks' starts as early as those allow.
    clear_objective();
    for (int i = 1; i + 1 < n_; ++i) glp_set_obj_coef(lp, t(i), 1.0);
    run();
    // Round 3: a leg's travel before its breaks rather than after (the m-th piece of a leg
    // after m breaks weighs m).
    bool breaks = false;
    for (const Step& s : r_.steps) breaks = breaks || s.is_break;
    if (breaks) {
      fix(sum_t_row_);
      clear_objective();
      int m = 0;
      for (int i = 0; i + 1 < n_; ++i) {
        m = r_.steps[static_cast<std::size_t>(i)].is_break ? m + 1 : 0;
        if (m > 0) glp_set_obj_coef(lp, d(i), static_cast<double>(m));
      }
      run();
    }
    Times out;
    for (int i = 0; i < n_; ++i) {
      out.begin.push_back(value(t(i)) + origin_);
      out.travel_after.push_back(i + 1 < n_ ? value(d(i)) : 0);
      const Step& s = r_.steps[static_cast<std::size_t>(i)];
      std::size_t chosen = s.windows.empty() ? kNone : 0;
      if (s.windows.size() > 1)
        for (std::size_t k = 0; k < s.windows.size(); ++k)
          if (glp_mip_col_val(lp, x_first_[static_cast<std::size_t>(i)] + static_cast<int>(k)) >
              0.5)
            chosen = k;
      out.window.push_back(chosen);
    }
    return out;
  }

 private:
  int t(int i) const { return 1 + i; }
  int y(int i) const { return 1 + n_ + i; }
  int d(int i) const { return 1 + 2 * n_ + i; }

  double shifted(Duration time) const {
    return static_cast<double>(std::min(time, horizon_) - origin_);
  }

  void set_origin_and_horizon() {
    Duration first = kMaxTime, last = 0, route = 0;
    auto see = [&](Duration time) {
      if (!finite(time)) return;
      first = std::min(first, time);
      last = std::max(last, time);
    };
    for (const Step& s : r_.steps) {
      route += s.action;
      see(s.earliest > 0 ? s.earliest : kMaxTime);
      see(s.latest);
      for (const TimeWindow& w : s.windows) {
        see(w.start);
        see(w.end);
      }
    }
    for (Duration leg : r_.legs) route += leg;
    origin_ = first == kMaxTime ? 0 : first;
    // An optimum starts by the last datum (shifted earlier, it would break nothing more) and does
    // not wait after it, so it ends by last + route.
    horizon_ = std::max(last, origin_) + route + 1;
  }

  void add_columns() {
    glp_prob* lp = lp_.get();
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_cols(lp, 3 * n_ - 1);
    for (int i = 0; i < n_; ++i) {
      const Step& s = r_.steps[static_cast<std::size_t>(i)];
      const double lo = shifted(std::max<Duration>(s.earliest, 0)), hi = shifted(s.latest);
      glp_set_col_bnds(lp, t(i), lo == hi ? GLP_FX : GLP_DB, lo, hi);
      glp_set_col_bnds(lp, y(i), GLP_LO, 0.0, 0.0);
      if (i + 1 < n_) glp_set_col_bnds(lp, d(i), GLP_LO, 0.0, 0.0);
    }
    x_first_.assign(r_.steps.size(), 0);
    for (int i = 0; i < n_; ++i) {
      const Step& s = r_.steps[static_cast<std::size_t>(i)];
      if (s.windows.size() < 2) continue;
      x_first_[static_cast<std::size_t>(i)] = glp_add_cols(lp, static_cast<int>(s.windows.size()));
      for (std::size_t k = 0; k < s.windows.size(); ++k)
        glp_set_col_kind(lp, x_first_[static_cast<std::size_t>(i)] + static_cast<int>(k), GLP_BV);
    }
  }

  int row(const std::vector<int>& cols, const std::vector<double>& coefs, int type, double lo,
          double hi) {
    glp_prob* lp = lp_.get();
    const int r = glp_add_rows(lp, 1);
    std::vector<int> ind(1, 0);
    std::vector<double> val(1, 0.0);
    ind.insert(ind.end(), cols.begin(), cols.end());
    val.insert(val.end(), coefs.begin(), coefs.end());
    glp_set_mat_row(lp, r, static_cast<int>(cols.size()), ind.data(), val.data());
    glp_set_row_bnds(lp, r, type, lo, hi);
    return r;
  }

  void add_rows() {
    // Precedence, and each leg's travel shared among its pieces.
    std::size_t leg = 0;
    std::vector<int> pieces;
    for (int i = 0; i + 1 < n_; ++i) {
      const Step& s = r_.steps[static_cast<std::size_t>(i)];
      row({t(i + 1), t(i), d(i)}, {1.0, -1.0, -1.0}, GLP_LO, static_cast<double>(s.action), 0.0);
      pieces.push_back(d(i));
      if (!r_.steps[static_cast<std::size_t>(i) + 1].is_break) {
        const double travel = static_cast<double>(r_.legs.at(leg++));
        row(pieces, std::vector<double>(pieces.size(), 1.0), GLP_FX, travel, travel);
        pieces.clear();
      }
    }
    // Violations against the chosen window.
    for (int i = 0; i < n_; ++i) {
      const Step& s = r_.steps[static_cast<std::size_t>(i)];
      if (s.windows.empty()) continue;
      if (s.windows.size() == 1) {
        row({t(i), y(i)}, {1.0, 1.0}, GLP_LO, shifted(s.windows[0].start), 0.0);
        if (finite(s.windows[0].end))
          row({t(i), y(i)}, {1.0, -1.0}, GLP_UP, 0.0, shifted(s.windows[0].end));
        continue;
      }
      std::vector<int> lead_cols{t(i), y(i)}, delay_cols{t(i), y(i)}, choice;
      std::vector<double> lead{1.0, 1.0}, delay{1.0, -1.0};
      for (std::size_t k = 0; k < s.windows.size(); ++k) {
        const int x = x_first_[static_cast<std::size_t>(i)] + static_cast<int>(k);
        lead_cols.push_back(x);
        lead.push_back(-shifted(s.windows[k].start));
        delay_cols.push_back(x);
        delay.push_back(-shifted(s.windows[k].end));
        choice.push_back(x);
      }
      row(lead_cols, lead, GLP_LO, 0.0, 0.0);
      row(delay_cols, delay, GLP_UP, 0.0, 0.0);
      row(choice, std::vector<double>(choice.size(), 1.0), GLP_FX, 1.0, 1.0);
    }
    // The figures the later rounds keep fixed (free rows until then).
    std::vector<int> ys, ts;
    for (int i = 0; i < n_; ++i) ys.push_back(y(i));
    for (int i = 1; i + 1 < n_; ++i) ts.push_back(t(i));
    sum_y_row_ = row(ys, std::vector<double>(ys.size(), 1.0), GLP_FR, 0.0, 0.0);
    makespan_row_ = row({t(n_ - 1), t(0)}, {1.0, -1.0}, GLP_FR, 0.0, 0.0);
    sum_t_row_ = ts.empty() ? 0 : row(ts, std::vector<double>(ts.size(), 1.0), GLP_FR, 0.0, 0.0);
  }

  void clear_objective() {
    for (int c = 1; c <= glp_get_num_cols(lp_.get()); ++c) glp_set_obj_coef(lp_.get(), c, 0.0);
  }

  /// Keeps a row at the value it has in the last round's solution (an integer: every vertex is).
  void fix(int r) {
    if (r == 0) return;
    const double v = std::round(glp_mip_row_val(lp_.get(), r));
    glp_set_row_bnds(lp_.get(), r, GLP_FX, v, v);
  }

  Duration value(int col) const {
    return static_cast<Duration>(std::llround(glp_mip_col_val(lp_.get(), col)));
  }

  void run() {
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_ON;
    parm.br_tech = GLP_BR_MFV;  // GLPK's default branching stalls on some of these programmes
    const int rc = glp_intopt(lp_.get(), &parm);
    const int status = glp_mip_status(lp_.get());
    if (rc != 0 || status != GLP_OPT)
      throw Error(ErrorCode::Internal, "plan mode: GLPK found no optimal schedule (glp_intopt " +
                                           std::to_string(rc) + ", status " +
                                           std::to_string(status) + ")");
  }

  const Route& r_;
  int n_;
  Lp lp_;
  Duration origin_ = 0, horizon_ = kMaxTime;
  std::vector<int> x_first_;
  int sum_y_row_ = 0, makespan_row_ = 0, sum_t_row_ = 0;
};

}  // namespace

std::size_t first_unreachable(const Route& route) {
  // The earliest schedule: each step as soon as the ones before it and its own bound allow.
  Duration prev = 0, leg_from = 0, breaks = 0;
  std::size_t leg = 0;
  for (std::size_t i = 0; i < route.steps.size(); ++i) {
    const Step& s = route.steps[i];
    Duration e = std::max<Duration>(s.earliest, 0);
    if (i > 0) e = std::max(e, prev + route.steps[i - 1].action);
    if (i > 0 && !s.is_break) e = std::max(e, leg_from + breaks + route.legs.at(leg++));
    if (e > s.latest) return i;
    if (s.is_break)
      breaks += s.action;
    else {
      leg_from = e + s.action;
      breaks = 0;
    }
    prev = e;
  }
  return kNone;
}

Times choose(const Route& route) {
  glp_term_out(GLP_OFF);
  return Programme(route).solve();
}

Duration lead_time(const Step& s, std::size_t w, Duration begin) {
  return w == kNone ? 0 : std::max<Duration>(0, s.windows[w].start - begin);
}

Duration delay(const Step& s, std::size_t w, Duration begin) {
  return w == kNone || !finite(s.windows[w].end) ? 0
                                                 : std::max<Duration>(0, begin - s.windows[w].end);
}

}  // namespace routesolve::plan_eta
