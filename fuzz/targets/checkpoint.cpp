// libFuzzer target: solver checkpoints (`routesolve solve --resume FILE`) -> decode_checkpoint
// and check_checkpoint against a fixed problem (2 vehicles, 3 jobs, 1 shipment). Unless bit 1
// of byte 8 (the version's low byte) is set, the target patches the header's payload size and
// CRC-32 to match the mutated bytes, and unless bit 2 is set it also writes the fixed
// problem's fingerprint first, so the fuzzer gets past the checksum and the fingerprint into
// the plan checks; with those bits set (versions this build never writes) the bytes stay as
// they are, so the checksum and fingerprint paths are fuzzed too.

#include "routesolve/checkpoint.hpp"

#include <zlib.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/checkpoint.hpp"

namespace {

std::shared_ptr<const routesolve::Problem> fixed_problem() {
  using namespace routesolve;
  ProblemSpec spec;
  const std::size_t n = 6;
  Matrix m(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      m(i, j) = static_cast<std::int64_t>(i > j ? i - j : j - i) * 10;
  spec.matrices["car"] = ProfileMatrices{m, m, std::nullopt};
  for (Id id = 1; id <= 3; ++id) {
    JobSpec job;
    job.id = id;
    job.location.index = static_cast<std::size_t>(id);
    spec.jobs.push_back(job);
  }
  ShipmentSpec s;
  s.pickup.id = 1;
  s.pickup.location.index = 4;
  s.delivery.id = 1;
  s.delivery.location.index = 5;
  spec.shipments.push_back(s);
  for (Id id = 1; id <= 2; ++id) {
    VehicleSpec v;
    v.id = id;
    v.start = LocationSpec{0, std::nullopt};
    v.end = LocationSpec{0, std::nullopt};
    spec.vehicles.push_back(v);
  }
  return Problem::create(std::move(spec));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace routesolve;
  static const auto problem = fixed_problem();
  static const std::uint64_t fingerprint = problem_fingerprint(*problem);
  std::string bytes(reinterpret_cast<const char*>(data), size);
  if (bytes.size() >= 32 && (bytes[8] & 2) == 0) {
    if (bytes.size() >= 40 && (bytes[8] & 4) == 0)
      std::memcpy(&bytes[32], &fingerprint, sizeof fingerprint);
    const std::uint64_t payload = bytes.size() - 32;
    std::memcpy(&bytes[16], &payload, sizeof payload);
    const auto crc = static_cast<std::uint32_t>(
        crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()) + 32, bytes.size() - 32));
    std::memcpy(&bytes[12], &crc, sizeof crc);
  }
  try {
    const SolveCheckpoint checkpoint = io::decode_checkpoint(bytes, "fuzz.ckpt");
    check_checkpoint(*problem, checkpoint);
  } catch (const Error&) {
  }
  return 0;
}
