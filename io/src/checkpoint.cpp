#include "routesolve/io/checkpoint.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

#include "checksum.hpp"
#include "routesolve/backend.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/atomic_file.hpp"

namespace routesolve::io {

namespace {

static_assert(
    std::endian::native == std::endian::little,
    "checkpoints are written little-endian with memcpy: add byte swapping for this platform");

constexpr std::array<char, 8> kMagic = {'R', 'S', 'C', 'K', 'P', 'T', '\0', '\0'};
constexpr std::size_t kHeaderSize = 32;

template <typename T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

[[noreturn]] void bad(const std::string& source, const std::string& what) {
  throw Error(ErrorCode::InvalidInput, source + ": checkpoint " + what);
}

/// Reads the payload field by field, naming the field that is missing.
class Reader {
 public:
  Reader(std::string_view bytes, const std::string& source) : bytes_(bytes), source_(source) {}
  template <typename T>
  T get(const char* field) {
    if (bytes_.size() - pos_ < sizeof(T))
      bad(source_, std::string("is truncated (in ") + field + ")");
    T value;
    std::memcpy(&value, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return value;
  }
  /// A count of 8-byte items that must still fit in the payload (no huge allocation from a bad
  /// count).
  std::size_t count(const char* field) {
    const auto n = get<std::uint64_t>(field);
    if (n > (bytes_.size() - pos_) / 8)
      bad(source_,
          std::string("is truncated or corrupt (") + field + " is " + std::to_string(n) + ")");
    return static_cast<std::size_t>(n);
  }
  [[nodiscard]] bool done() const noexcept { return pos_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
  const std::string& source_;
};

}  // namespace

std::string encode_checkpoint(const SolveCheckpoint& c) {
  std::string payload;
  std::size_t words = 20 + c.unassigned.size();
  for (const auto& r : c.routes) words += 1 + r.size();
  payload.reserve(words * 8);
  put<std::uint64_t>(payload, c.fingerprint);
  put<std::uint64_t>(payload, c.seed);
  put<std::uint32_t>(payload, c.threads);
  put<std::uint32_t>(payload, c.objective == Objective::VehiclesThenCost ? 1u : 0u);
  put<double>(payload, c.time_limit_s);
  put<double>(payload, c.elapsed_s);
  put<std::uint64_t>(payload, c.iterations);
  put<std::int64_t>(payload, c.score.priority_lost);
  put<std::uint64_t>(payload, c.score.unassigned);
  put<std::uint64_t>(payload, c.score.routes);
  put<std::int64_t>(payload, c.score.cost);
  put<std::uint64_t>(payload, c.routes.size());
  for (const auto& route : c.routes) {
    put<std::uint64_t>(payload, route.size());
    for (std::size_t t : route) put<std::uint64_t>(payload, t);
  }
  put<std::uint64_t>(payload, c.unassigned.size());
  for (std::size_t t : c.unassigned) put<std::uint64_t>(payload, t);

  std::string out(kMagic.begin(), kMagic.end());
  put<std::uint32_t>(out, kCheckpointVersion);
  put<std::uint32_t>(out, detail::crc_update(0, payload.data(), payload.size()));
  put<std::uint64_t>(out, payload.size());
  put<std::uint64_t>(out, 0);
  out += payload;
  return out;
}

SolveCheckpoint decode_checkpoint(std::string_view bytes, const std::string& source) {
  if (bytes.size() < kHeaderSize) {
    if (bytes.size() >= kMagic.size() &&
        std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0)
      bad(source, "is not a routesolve checkpoint (wrong magic)");
    bad(source,
        "is truncated (" + std::to_string(bytes.size()) + " bytes, the header alone has 32)");
  }
  if (std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0)
    bad(source, "is not a routesolve checkpoint (wrong magic)");
  Reader header(bytes.substr(kMagic.size(), kHeaderSize - kMagic.size()), source);
  const auto version = header.get<std::uint32_t>("version");
  const auto crc = header.get<std::uint32_t>("checksum");
  const auto size = header.get<std::uint64_t>("payload size");
  const auto reserved = header.get<std::uint64_t>("reserved");
  if (version != kCheckpointVersion)
    bad(source, "has format version " + std::to_string(version) +
                    ", this routesolve reads version " + std::to_string(kCheckpointVersion));
  if (size != bytes.size() - kHeaderSize)
    bad(source, "is truncated or has trailing bytes (payload of " +
                    std::to_string(bytes.size() - kHeaderSize) + " bytes, the header says " +
                    std::to_string(size) + ")");
  if (reserved != 0) bad(source, "is corrupt (reserved header bytes are not zero)");
  const std::string_view payload = bytes.substr(kHeaderSize);
  if (detail::crc_update(0, payload.data(), payload.size()) != crc)
    bad(source, "is corrupt (checksum mismatch)");

  Reader r(payload, source);
  SolveCheckpoint c;
  c.source = source;
  c.fingerprint = r.get<std::uint64_t>("fingerprint");
  c.seed = r.get<std::uint64_t>("seed");
  c.threads = r.get<std::uint32_t>("threads");
  const auto objective = r.get<std::uint32_t>("objective");
  if (objective > 1)
    bad(source, "field objective: " + std::to_string(objective) + " is not 0 or 1");
  c.objective = objective == 1 ? Objective::VehiclesThenCost : Objective::Cost;
  c.time_limit_s = r.get<double>("time_limit");
  c.elapsed_s = r.get<double>("elapsed");
  if (!std::isfinite(c.time_limit_s) || c.time_limit_s < 0 || !std::isfinite(c.elapsed_s) ||
      c.elapsed_s < 0)
    bad(source, "field time_limit/elapsed: must be finite and non-negative");
  if (c.threads == 0) bad(source, "field threads: must be at least 1");
  c.iterations = r.get<std::uint64_t>("iterations");
  c.score.priority_lost = r.get<std::int64_t>("priority_lost");
  c.score.unassigned = r.get<std::uint64_t>("unassigned count");
  c.score.routes = r.get<std::uint64_t>("route count");
  c.score.cost = r.get<std::int64_t>("cost");
  c.routes.resize(r.count("vehicles"));
  for (auto& route : c.routes) {
    route.resize(r.count("route length"));
    for (std::size_t& t : route) t = static_cast<std::size_t>(r.get<std::uint64_t>("route task"));
  }
  c.unassigned.resize(r.count("unassigned"));
  for (std::size_t& t : c.unassigned)
    t = static_cast<std::size_t>(r.get<std::uint64_t>("unassigned task"));
  if (!r.done()) bad(source, "has bytes after the unassigned tasks");
  return c;
}

void write_checkpoint(const std::filesystem::path& file, const SolveCheckpoint& checkpoint) {
  write_file_atomically(file, encode_checkpoint(checkpoint), {.binary = true, .durable = true});
}

SolveCheckpoint read_checkpoint(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) bad(file.string(), "cannot be opened for reading");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) bad(file.string(), "cannot be read");
  return decode_checkpoint(bytes, file.string());
}

}  // namespace routesolve::io
