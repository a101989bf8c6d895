// The binary network cache (.rsnet): a road network read back in a fraction of its import time.
//
// Layout (all little-endian):
//   header  32 bytes: magic "RSNET\0\0\0", u32 version, u32 section count, u64 file size,
//           u32 CRC-32 (zlib) over the section table and every section's bytes, u32 zero
//   table   32 bytes per section: tag (16 bytes, NUL padded), u64 offset, u64 size
//   data    the sections, contiguous, in table order
// Graph sections: "meta" (u64 counts and the import report), "source", "first_out", "head",
// "duration", "length" (u32 arrays), "coords" (f64 lon, lat pairs). Any other tag is an extra
// section: skipped by readers that do not know it, so later data (a contraction hierarchy...)
// can be added without a new version. Arrays are written and read raw, straight into vectors.

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "checksum.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/atomic_file.hpp"
#include "routesolve/io/road_formats.hpp"

namespace routesolve::io {
namespace {

static_assert(
    std::endian::native == std::endian::little,
    "the .rsnet cache stores raw little-endian arrays: add byte swapping for this platform");
static_assert(sizeof(Coordinates) == 2 * sizeof(double), "Coordinates must be two packed doubles");

constexpr std::array<char, 8> kMagic = {'R', 'S', 'N', 'E', 'T', '\0', '\0', '\0'};
constexpr std::size_t kHeaderSize = 32, kEntrySize = 32, kTagSize = 16, kMaxSections = 4096;
constexpr std::array<std::string_view, 7> kGraphTags = {"meta",     "source", "first_out", "head",
                                                        "duration", "length", "coords"};
constexpr std::size_t kMetaWords = 10;

[[noreturn]] void corrupt(const std::filesystem::path& file, std::string_view what) {
  throw Error(ErrorCode::InvalidInput,
              fmt::format("{}: network cache {}: rebuild it with `routesolve network build`",
                          file.string(), what));
}

template <typename T>
void put(std::vector<std::uint8_t>& out, T value) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(&value);
  out.insert(out.end(), p, p + sizeof(T));
}
template <typename T>
T get(const std::uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

struct FileCloser {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// One section to write: a view of bytes owned elsewhere.
struct Chunk {
  std::string_view tag;
  const void* data;
  std::size_t size;
};

using detail::crc_update;

bool is_graph_tag(std::string_view tag) {
  for (std::string_view t : kGraphTags)
    if (t == tag) return true;
  return false;
}

void check_extra_tag(const std::string& tag) {
  if (tag.empty() || tag.size() >= kTagSize || tag.find('\0') != std::string::npos)
    throw invalid_input("cache section tag",
                        fmt::format("'{}' must have 1 to {} characters", tag, kTagSize - 1));
  if (is_graph_tag(tag))
    throw invalid_input("cache section tag", fmt::format("'{}' is reserved for the graph", tag));
}

void write_chunks(const std::vector<Chunk>& chunks, const std::filesystem::path& file) {
  std::vector<std::uint8_t> table;
  std::uint64_t offset = kHeaderSize + kEntrySize * chunks.size();
  for (const Chunk& c : chunks) {
    std::array<char, kTagSize> tag{};
    std::memcpy(tag.data(), c.tag.data(), c.tag.size());
    table.insert(table.end(), tag.begin(), tag.end());
    put<std::uint64_t>(table, offset);
    put<std::uint64_t>(table, c.size);
    offset += c.size;
  }
  std::uint32_t crc = crc_update(0, table.data(), table.size());
  for (const Chunk& c : chunks) crc = crc_update(crc, c.data, c.size);
  std::vector<std::uint8_t> header(kMagic.begin(), kMagic.end());
  put<std::uint32_t>(header, kNetworkCacheVersion);
  put<std::uint32_t>(header, static_cast<std::uint32_t>(chunks.size()));
  put<std::uint64_t>(header, offset);
  put<std::uint32_t>(header, crc);
  put<std::uint32_t>(header, 0);

  // Temporary file in the target folder, then rename: readers never see a half-written cache.
  const std::filesystem::path tmp = unique_temp_path(file);
  const auto fail = [&](std::string_view what) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw invalid_input(file.string(), fmt::format("cannot write the network cache: {}", what));
  };
  {
    File out(std::fopen(tmp.c_str(), "wb"));
    if (!out) fail(std::strerror(errno));
    bool ok = std::fwrite(header.data(), 1, header.size(), out.get()) == header.size() &&
              std::fwrite(table.data(), 1, table.size(), out.get()) == table.size();
    for (const Chunk& c : chunks)
      ok = ok && (c.size == 0 || std::fwrite(c.data, 1, c.size, out.get()) == c.size);
    ok = ok && std::fflush(out.get()) == 0 && ::fsync(::fileno(out.get())) == 0;
    if (!ok) fail(std::strerror(errno));
    if (std::fclose(out.release()) != 0) fail(std::strerror(errno));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) fail(ec.message());
}

template <typename T>
Chunk chunk(std::string_view tag, const std::vector<T>& v) {
  return {tag, v.data(), v.size() * sizeof(T)};
}

// Reads a whole cache: the graph into `net`, the other sections into *extra (or skipped).
void read_cache(const std::filesystem::path& file, RoadNetwork& net,
                std::vector<CacheSection>* extra) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw invalid_input(file.string(), "no such network cache file");
  const std::uint64_t actual_size = std::filesystem::file_size(file, ec);
  if (ec)
    throw invalid_input(file.string(),
                        fmt::format("cannot read the network cache: {}", ec.message()));
  File in(std::fopen(file.c_str(), "rb"));
  if (!in)
    throw invalid_input(file.string(),
                        fmt::format("cannot open the network cache: {}", std::strerror(errno)));
  const auto read = [&](void* dst, std::size_t size) {
    if (size != 0 && std::fread(dst, 1, size, in.get()) != size) corrupt(file, "is truncated");
  };

  std::array<std::uint8_t, kHeaderSize> header{};
  if (actual_size < kHeaderSize) corrupt(file, fmt::format("is truncated ({} bytes)", actual_size));
  read(header.data(), header.size());
  if (std::memcmp(header.data(), kMagic.data(), kMagic.size()) != 0)
    corrupt(file, "has a wrong magic (not an .rsnet file)");
  const auto version = get<std::uint32_t>(&header[8]);
  if (version != kNetworkCacheVersion)
    corrupt(file, fmt::format("has format version {}, this build reads version {}", version,
                              kNetworkCacheVersion));
  const auto count = get<std::uint32_t>(&header[12]);
  const auto size = get<std::uint64_t>(&header[16]);
  const auto expected_crc = get<std::uint32_t>(&header[24]);
  if (actual_size < size)
    corrupt(file, fmt::format("is truncated ({} of {} bytes)", actual_size, size));
  if (actual_size > size) corrupt(file, fmt::format("has {} trailing bytes", actual_size - size));
  if (count > kMaxSections || kHeaderSize + std::uint64_t{count} * kEntrySize > size)
    corrupt(file, "has a corrupt section table");

  std::vector<std::uint8_t> table(std::size_t{count} * kEntrySize);
  read(table.data(), table.size());
  std::uint32_t crc = crc_update(0, table.data(), table.size());

  std::array<std::uint64_t, kMetaWords> meta{};
  bool have_meta = false;
  RoadGraph& g = net.graph;
  std::uint64_t offset = kHeaderSize + table.size();
  const auto read_array = [&](auto& v, std::uint64_t bytes, std::string_view tag) {
    using T = typename std::remove_reference_t<decltype(v)>::value_type;
    if (bytes % sizeof(T) != 0) corrupt(file, fmt::format("has a corrupt '{}' section", tag));
    v.resize(bytes / sizeof(T));
    read(v.data(), bytes);
    crc = crc_update(crc, v.data(), bytes);
  };
  for (std::uint32_t s = 0; s < count; ++s) {
    const std::uint8_t* e = &table[std::size_t{s} * kEntrySize];
    const char* tag_chars = reinterpret_cast<const char*>(e);
    const std::string tag(tag_chars, strnlen(tag_chars, kTagSize));
    const auto at = get<std::uint64_t>(e + kTagSize), bytes = get<std::uint64_t>(e + kTagSize + 8);
    if (at != offset || bytes > size - offset)
      corrupt(file, fmt::format("has a corrupt section table ('{}')", tag));
    offset += bytes;
    if (tag == "meta") {
      if (bytes != sizeof meta) corrupt(file, "has a corrupt 'meta' section");
      read(meta.data(), sizeof meta);
      crc = crc_update(crc, meta.data(), sizeof meta);
      have_meta = true;
    } else if (tag == "source") {
      read_array(net.source, bytes, tag);
    } else if (tag == "first_out") {
      read_array(g.first_out, bytes, tag);
    } else if (tag == "head") {
      read_array(g.head, bytes, tag);
    } else if (tag == "duration") {
      read_array(g.duration, bytes, tag);
    } else if (tag == "length") {
      read_array(g.length, bytes, tag);
    } else if (tag == "coords") {
      read_array(g.coords, bytes, tag);
    } else if (extra) {
      CacheSection section{tag, {}};
      read_array(section.data, bytes, tag);
      extra->push_back(std::move(section));
    } else {  // unknown and unwanted: only checksummed
      std::vector<std::uint8_t> scratch(1 << 16);
      for (std::uint64_t left = bytes; left > 0;) {
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(left, scratch.size()));
        read(scratch.data(), n);
        crc = crc_update(crc, scratch.data(), n);
        left -= n;
      }
    }
  }
  if (crc != expected_crc) corrupt(file, "is corrupt (checksum mismatch)");

  // Structural checks: cheap next to the read, and they keep a damaged cache from crashing routing.
  if (!have_meta) corrupt(file, "has no 'meta' section");
  const std::uint64_t nodes = meta[0], arcs = meta[1], coords = meta[2];
  if (g.first_out.size() != nodes + 1 || g.head.size() != arcs || g.duration.size() != arcs ||
      g.length.size() != arcs || g.coords.size() != coords || (coords != 0 && coords != nodes))
    corrupt(file, "has sections of inconsistent sizes");
  if (g.first_out.front() != 0 || g.first_out.back() != arcs)
    corrupt(file, "has a corrupt 'first_out' section");
  for (std::size_t v = 0; v < nodes; ++v)
    if (g.first_out[v] > g.first_out[v + 1]) corrupt(file, "has a corrupt 'first_out' section");
  for (NodeId h : g.head)
    if (h >= nodes) corrupt(file, "has a corrupt 'head' section");
  NetworkReport& r = net.report;
  r.nodes_read = meta[3];
  r.arcs_read = meta[4];
  r.nodes_kept = meta[5];
  r.arcs_kept = meta[6];
  r.components = meta[7];
  r.nodes_dropped = meta[8];
  r.import_seconds = std::bit_cast<double>(meta[9]);
}

}  // namespace

void write_network_cache(const RoadNetwork& network, const std::filesystem::path& file,
                         const std::vector<CacheSection>& extra) {
  const RoadGraph& g = network.graph;
  if (g.first_out.empty() || g.first_out.size() != g.node_count() + 1 ||
      g.duration.size() != g.head.size() || g.length.size() != g.head.size() ||
      (!g.coords.empty() && g.coords.size() != g.node_count()))
    throw Error(ErrorCode::Internal,
                file.string() + ": network cache: the graph's arrays have inconsistent sizes");
  for (std::size_t i = 0; i < extra.size(); ++i) {
    check_extra_tag(extra[i].tag);
    for (std::size_t j = 0; j < i; ++j)
      if (extra[j].tag == extra[i].tag)
        throw invalid_input("cache section tag", fmt::format("'{}' given twice", extra[i].tag));
  }
  const NetworkReport& r = network.report;
  const std::array<std::uint64_t, kMetaWords> meta = {
      g.node_count(),  g.arc_count(),
      g.coords.size(), r.nodes_read,
      r.arcs_read,     r.nodes_kept,
      r.arcs_kept,     r.components,
      r.nodes_dropped, std::bit_cast<std::uint64_t>(r.import_seconds)};
  std::vector<Chunk> chunks = {
      {"meta", meta.data(), sizeof meta}, {"source", network.source.data(), network.source.size()},
      chunk("first_out", g.first_out),    chunk("head", g.head),
      chunk("duration", g.duration),      chunk("length", g.length),
      chunk("coords", g.coords),
  };
  for (const CacheSection& s : extra) chunks.push_back(chunk(s.tag, s.data));
  write_chunks(chunks, file);
}

RoadNetwork read_network_cache(const std::filesystem::path& file,
                               std::vector<CacheSection>* extra) {
  RoadNetwork net;
  read_cache(file, net, extra);
  return net;
}

std::optional<std::vector<std::uint8_t>> read_cache_section(const std::filesystem::path& file,
                                                            std::string_view tag) {
  RoadNetwork net;
  std::vector<CacheSection> extra;
  read_cache(file, net, &extra);
  for (CacheSection& s : extra)
    if (s.tag == tag) return std::move(s.data);
  return std::nullopt;
}

void add_cache_section(const std::filesystem::path& file, const CacheSection& section) {
  check_extra_tag(section.tag);
  std::vector<CacheSection> extra;
  const RoadNetwork net = read_network_cache(file, &extra);
  bool replaced = false;
  for (CacheSection& s : extra) {
    if (s.tag == section.tag) {
      s.data = section.data;
      replaced = true;
    }
  }
  if (!replaced) extra.push_back(section);
  write_network_cache(net, file, extra);
}

bool is_network_cache(const std::filesystem::path& file) {
  File in(std::fopen(file.c_str(), "rb"));
  if (!in) return false;
  std::array<char, kMagic.size()> magic{};
  return std::fread(magic.data(), 1, magic.size(), in.get()) == magic.size() && magic == kMagic;
}

}  // namespace routesolve::io
