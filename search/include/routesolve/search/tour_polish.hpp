#pragma once
// The intra-route operators (operators/two_opt.hpp, operators/or_opt.hpp, their shared
// operators/tour_costs.hpp) and their descent, polish_tour (descent.hpp), under the name the
// segment tests include.

#include "routesolve/search/descent.hpp"
#include "routesolve/search/operators/or_opt.hpp"
#include "routesolve/search/operators/tour_costs.hpp"
#include "routesolve/search/operators/two_opt.hpp"
