#pragma once
// Private to io/src: the VROOM problem parser, one ProblemParser per document. Its parts:
//   vroom_json.cpp           the document (top-level sections, in order) and field values
//   vroom_json_tasks.cpp     jobs and shipments
//   vroom_json_vehicles.cpp  vehicles and their breaks
//   vroom_json_matrices.cpp  travel matrices and their use (sizes, profiles, location indices)
//   vroom_json_reader.cpp    the JSON text reader and JsonReader (shared with the solution parser)

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "routesolve/problem.hpp"
#include "vroom_reader.hpp"

namespace routesolve::io::detail {

class ProblemParser {
 public:
  explicit ProblemParser(const std::string& source) : r_(source) {}

  ProblemSpec parse(const Json& root);

 private:
  // Values (vroom_json.cpp).
  std::int64_t integer(const Json& obj, const std::string& path, std::string_view key);
  std::string optional_string(const Json& obj, const std::string& path, std::string_view key);
  Id id(const Json& obj, const std::string& path);
  Amount amount(const Json& value, const std::string& path);
  Amount optional_amount(const Json& obj, const std::string& path, std::string_view key);
  std::vector<std::uint32_t> skills(const Json& obj, const std::string& path);
  int priority(const Json& obj, const std::string& path);
  TimeWindow time_window(const Json& value, const std::string& path);
  std::vector<TimeWindow> time_windows(const Json& obj, const std::string& path);
  std::optional<LocationSpec> location(const Json& obj, const std::string& path,
                                       std::string_view coords_key, std::string_view index_key);
  LocationSpec required_location(const Json& obj, const std::string& path);
  void unique(std::unordered_map<Id, std::string>& seen, Id value, const std::string& path,
              std::string_view what);

  // Tasks (vroom_json_tasks.cpp).
  JobSpec job(const Json& j, const std::string& path);
  ShipmentStepSpec shipment_step(const Json& s, const std::string& path,
                                 std::unordered_map<Id, std::string>& ids, std::string_view what);
  ShipmentSpec shipment(const Json& s, const std::string& path);

  // Vehicles (vroom_json_vehicles.cpp).
  BreakSpec vehicle_break(const Json& b, const std::string& path,
                          std::unordered_map<Id, std::string>& ids);
  VehicleStepSpec vehicle_step(const Json& s, const std::string& path);
  VehicleSpec vehicle(const Json& v, const std::string& path);
  void reloads(const Json& v, const std::string& path, VehicleSpec& vehicle);

  // Matrices (vroom_json_matrices.cpp).
  Matrix matrix(const Json& m, const std::string& path);
  ProfileMatrices profile_matrices(const Json& m, const std::string& path);
  void check_same_size(const ProfileMatrices& m, const std::string& path);
  void check_matrix_use(const ProblemSpec& spec);

  struct IndexUse {
    std::size_t index;
    std::string path;
    std::optional<std::string> profile;  // vehicles: only their profile's matrices matter
  };

  detail::JsonReader r_;
  std::optional<std::pair<std::size_t, std::string>> dimensions_;
  std::unordered_map<Id, std::string> job_ids_, pickup_ids_, delivery_ids_, vehicle_ids_;
  std::vector<IndexUse> index_uses_;
};

}  // namespace routesolve::io::detail
