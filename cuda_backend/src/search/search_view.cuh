#pragma once
// The batched move engine's shared code, written once for host and device (RS_HD), by file:
//   views.cuh          the packed problem, the batch, the prefix arrays, Move, RouteSpec, the
//                      scratch of a round (and the model's documented limits)
//   prefix.cuh         the walk along a route and the per-route prefix build
//   route_spec.cuh     composed routes: pieces, task counts, the walk over their tasks
//   pricing/           one file per move family (relocate + or-opt, swap, 2-opt*, 2-opt, pair
//                      relocate), price_route.cuh (one composed route), moves.cuh (make_specs,
//                      price_move, best_move)
//   selection.cuh      the greedy non-overlapping selection of a round's moves
//   route_writer.cuh   new route lengths and positions after a round
//   kernels.cuh        the per-thread bodies the kernels and the host twin run

#include "kernels.cuh"
