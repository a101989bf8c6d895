#pragma once
// The intra-route operators (operators/two_opt.hpp, operators/or_opt.hpp, their shared
// operators/tour_costs.hpp) and their descent, polish_tour (descent.hpp), under the name the
// segment tests include.

#include "descent.hpp"
#include "operators/or_opt.hpp"
#include "operators/tour_costs.hpp"
#include "operators/two_opt.hpp"
