#pragma once
// The matrix half of dispatch: which provider fills a spec's travel matrices, chosen in one place.
//
//   no road network       -> great-circle at the given speed
//   road network, cpu     -> Boost.Graph Dijkstra from every source (no preprocessing)
//   road network, cuda-host / cuda -> PHAST/RPHAST sweeps over the network's contraction
//                            hierarchy, on the host twin or on the device
//   road network, auto    -> cuda when a device is usable and passes its self-test (cuda-host,
//                            with the reason, when it fails it); else cuda-host when the network
//                            cache holds a hierarchy (nothing to build); else cpu
//
// Networks and hierarchies are loaded once per process and shared (batch runs, the service).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "routesolve/backend.hpp"
#include "routesolve/network/matrix_provider.hpp"
#include "routesolve/network/road_router.hpp"

namespace routesolve::dispatch {

struct MatrixOptions {
  std::string
      network;  ///< road network file (.osm.pbf, .gr, edge list, .rsnet); empty: great-circle
  BackendKind backend = BackendKind::Auto;  ///< matrix engine on a road network (see above)
  DeviceOptions device;                     ///< cuda: the device and the transfer mode
  unsigned threads = 1;
  double max_snap_m = network::kDefaultMaxSnapM;
  double speed_mps = network::GreatCircleProvider::kDefaultSpeedMps;  ///< great-circle only
};

/// The engine `requested` resolves to for a road network file (the auto rule above), on CUDA
/// device `device_index`; `*fallback` (when given) gets why auto did not take the device it
/// found (empty otherwise).
BackendKind resolve_matrix_backend(BackendKind requested, const std::string& network_file,
                                   int device_index = 0, std::string* fallback = nullptr);

/// A road network loaded once per process (thread-safe); `*load_seconds` gets the time spent
/// loading it by this call (0 when it was loaded before). Throws invalid_input naming the file.
std::shared_ptr<const network::RoadRouter> load_road_router(const std::string& file,
                                                            double* load_seconds = nullptr);

/// Stage times of the node engine, summed over its calls ("ch_load", "matrix_selection",
/// "matrix_upward", "matrix_h2d", "matrix_sweeps", "matrix_d2h" for PHAST; "matrix" for Dijkstra).
struct EngineProfile {
  std::vector<network::ProviderStage> stages;
  std::uint64_t work = 0;  ///< settled nodes (Dijkstra) or relaxations (PHAST)
  double seconds = 0.0;    ///< wall time of the matrix computations
  std::string summary;     ///< one line (PHAST: stage shares, relaxations per second)
  std::string fallback;  ///< why the device's sweeps were left for the host twin's (a device fault)
};

/// The node engine of a road network for an engine kind that resolve_matrix_backend() gave:
/// empty for Cpu (the router's own Dijkstra), PHAST sweeps for CudaHost / Cuda (the hierarchy
/// from the network cache's "ch" section, else built now). `profile`, when given, must outlive
/// the function; every call updates it. Cuda: Error(Device) naming the reason when the device
/// failed its self-test. A device exception (opening the engine or in a call) marks the devices
/// unusable for the process; with options.backend Auto the sweeps go on on the host twin (the
/// reason in profile->fallback), otherwise it is Error(Device) naming it.
network::NodeMatrixFunction make_node_engine(BackendKind engine, const std::string& network_file,
                                             const network::RoadRouter& router,
                                             const MatrixOptions& options,
                                             std::shared_ptr<EngineProfile> profile = nullptr);

/// The provider the options ask for. Its stage times (ProvidedMatrices::stages) name the
/// network load, snapping and the matrix stages of the chosen engine.
std::unique_ptr<network::MatrixProvider> make_matrix_provider(const MatrixOptions& options);

}  // namespace routesolve::dispatch
