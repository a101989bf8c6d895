#pragma once
// Generated fleet scenarios for the migration benchmark: a fleet of trucks serving
// stops on a road network, written as VROOM JSON with coordinates (no matrices: `solve
// --network` computes them), plus a built-in synthetic city so the scenario needs no external
// data. Everything is drawn from one seed with a portable generator (splitmix64, no
// std::*_distribution), so the same arguments give a byte-identical file on every platform.

#include <cstddef>
#include <cstdint>
#include <string>

#include "routesolve/road_graph.hpp"
#include "routesolve/types.hpp"

namespace routesolve::scenario {

/// The streets of "Gridville", a made-up city placed in the North Atlantic (so it is never
/// mistaken for a real place): a square grid of two-way arterials every `arterial_every`
/// streets (and on the border) at 50 km/h, residential streets at 30 km/h in between, every
/// third residential street one-way in alternating directions. Strongly connected by design.
struct SyntheticCityOptions {
  std::size_t streets = 64;        ///< streets per direction: streets x streets intersections
  double spacing_m = 150.0;        ///< distance between neighbouring intersections
  std::size_t arterial_every = 8;  ///< every n-th street is an arterial
  Coordinates centre{-35.0, 47.0};
};

/// The synthetic city as a road network (largest strongly connected component: all of it),
/// source "synthetic:city". Arc lengths are great-circle metres between the intersections and
/// durations follow them at the street's speed, as the OSM importer computes them.
RoadNetwork synthetic_city(const SyntheticCityOptions& options = {});

/// What `routesolve generate` draws.
struct ScenarioOptions {
  std::size_t trucks = 500;
  std::size_t stops = 5000;
  std::size_t depots = 1;
  std::uint64_t seed = 1;
  std::size_t capacity_dims = 1;  ///< 1: weight (kg); 2: weight and volume (litres)
};

/// A fleet problem on `graph` (which needs coordinates) as VROOM JSON text:
///  - depots: distinct road nodes; truck i starts and ends at depot i mod depots;
///  - stops: jobs on road nodes drawn uniformly (distinct while stops <= nodes), each with a
///    delivery amount per dimension, a service time of 2-10 min and a time window: morning
///    08:00-12:00, afternoon 13:00-17:00 or all day 08:00-18:00 (40/35/25%);
///  - trucks: a shift (day 07:00-19:00, early 06:00-15:00 or late 09:00-20:00, 60/20/20%), one
///    30-minute break between 3 and 6 hours into the shift, and a capacity per dimension (two
///    thirds standard vans, one third large trucks at 1.5x), sized so the fleet carries about
///    1.4 times the total demand.
/// Times are seconds from midnight. Throws invalid_input for zero trucks or stops, more depots
/// than nodes, a graph without coordinates, or capacity_dims outside 1..2.
std::string generate_scenario(const RoadGraph& graph, const ScenarioOptions& options);

}  // namespace routesolve::scenario
