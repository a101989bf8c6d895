#pragma once
// Where travel matrices come from: one interface, `points -> durations, distances`, behind which
// sit the great-circle estimate, Boost.Graph Dijkstra on a road network, and the PHAST sweeps of
// the CUDA backend on the host or the device (plugged into the road provider as its node engine).
// dispatch/ chooses among them (routesolve/dispatch/matrices.hpp); whoever builds a ProblemSpec
// asks a provider once, through fill_matrices(); Problem::create never builds matrices.

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "routesolve/problem.hpp"
#include "routesolve/snap.hpp"
#include "routesolve/types.hpp"

namespace routesolve::network {

/// The unit scales a provider writes its matrices in: seconds and metres times these
/// (ProblemSpec::scale; 1 for VROOM input).
struct MatrixScale {
  double time = 1.0;
  double distance = 1.0;
};

/// One stage of a provider's work, for --profile ("snap", "matrix", "matrix_sweeps", ...).
struct ProviderStage {
  std::string name;
  double seconds = 0.0;
};

/// Matrices between points (row = from, column = to), in the requested scale. A point the
/// provider could not place (a stop too far from every road) has `placed[i] == false` and is
/// kUnreachable to and from every other point (0 to itself).
struct ProvidedMatrices {
  Matrix durations, distances;
  std::vector<bool> placed;       ///< one per point
  std::vector<SnapResult> snaps;  ///< road providers: where each point joined the roads
  std::vector<ProviderStage> stages;
};

class MatrixProvider {
 public:
  virtual ~MatrixProvider() = default;
  /// "great-circle", "road (Boost.Graph Dijkstra)", "road (PHAST, cuda-host)", ...
  [[nodiscard]] virtual std::string name() const = 0;
  /// Matrices between `points` (throws Error naming the provider when it cannot serve them).
  [[nodiscard]] virtual ProvidedMatrices compute(std::span<const Coordinates> points,
                                                 const MatrixScale& scale) const = 0;
  /// Why a point could not be placed ("no drivable road within 1000 m of (lon, lat)").
  [[nodiscard]] virtual std::string unplaced_reason(const Coordinates& point) const;
  /// The line a vehicle follows between two computed points (for maps): just the two points
  /// unless the provider knows the roads.
  [[nodiscard]] virtual std::vector<Coordinates> leg(const ProvidedMatrices& m,
                                                     std::span<const Coordinates> points,
                                                     std::size_t from, std::size_t to) const;
};

/// What fill_matrices did, by location index.
struct MatrixFill {
  std::vector<Coordinates> points;    ///< coordinates of each location index
  std::vector<std::string> unplaced;  ///< JSON paths of tasks the provider could not place
  ProvidedMatrices matrices;          ///< the provider's answer (matrices moved into the spec)
};

/// Fills the spec's matrices from `provider` for every profile used by a vehicle and assigns a
/// location index to every distinct coordinate. Returns false (spec unchanged) when the spec
/// already has matrices. Throws invalid_input naming the JSON path (prefixed by spec.source) of a
/// location without coordinates, and of a vehicle start or end the provider cannot place; a task
/// it cannot place is unreachable (solvers report it unassigned with reason `unreachable`).
/// Refuses (Error OutOfMemory) before allocating matrices that cannot fit.
bool fill_matrices(ProblemSpec& spec, const MatrixProvider& provider, MatrixFill* fill = nullptr);

/// Great-circle (haversine_m of snap.hpp) distances on a spherical Earth and a constant speed: the
/// estimate VROOM users get without a routing server.
class GreatCircleProvider final : public MatrixProvider {
 public:
  static constexpr double kDefaultSpeedMps = 50.0 / 3.6;
  /// Throws invalid_input("speed", ...) unless speed_mps > 0.
  explicit GreatCircleProvider(double speed_mps = kDefaultSpeedMps);
  [[nodiscard]] std::string name() const override { return "great-circle"; }
  [[nodiscard]] ProvidedMatrices compute(std::span<const Coordinates> points,
                                         const MatrixScale& scale) const override;

 private:
  double speed_mps_;
};

/// "(lon, lat)" with six decimals, for messages.
std::string describe(const Coordinates& point);

}  // namespace routesolve::network
