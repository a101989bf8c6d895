// The .rsnet road-network cache: round trips with extra sections, corruption detected.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "road_support.hpp"
#include "routesolve/error.hpp"
#include "routesolve/io/road_formats.hpp"
#include "routesolve/road_graph.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace routesolve;
using routesolve::io::CacheSection;
using namespace road_support;

namespace {

// ---- cache -------------------------------------------------------------------------------------

class NetworkCacheTest : public RoadFilesTest {
 protected:
  RoadNetwork small() {
    return io::read_dimacs(
        write("g.gr", "p sp 3 4\na 1 2 10\na 2 1 12\na 2 3 5\na 3 1 5\n"),
        write("g.co", "v 1 12500000 41900000\nv 2 12501000 41900000\nv 3 12502000 41901000\n"));
  }
  static std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

TEST_F(NetworkCacheTest, RoundTripAndExtraSections) {
  const RoadNetwork net = small();
  const fs::path cache = dir_ / "g.rsnet";
  io::write_network_cache(net, cache, {CacheSection{"ch", {1, 2, 3}}, CacheSection{"future", {9}}});
  EXPECT_TRUE(io::is_network_cache(cache));
  expect_same_network(net, io::read_network_cache(cache));  // unknown sections skipped
  std::vector<CacheSection> extra;
  expect_same_network(net, io::read_network_cache(cache, &extra));
  ASSERT_EQ(extra.size(), 2u);
  EXPECT_EQ(extra[0].tag, "ch");
  EXPECT_EQ(extra[0].data, (std::vector<std::uint8_t>{1, 2, 3}));
  EXPECT_EQ(io::read_cache_section(cache, "future"), (std::vector<std::uint8_t>{9}));
  EXPECT_FALSE(io::read_cache_section(cache, "absent"));
  io::add_cache_section(cache, {"ch", {4, 5}});
  io::add_cache_section(cache, {"more", {}});
  EXPECT_EQ(io::read_cache_section(cache, "ch"), (std::vector<std::uint8_t>{4, 5}));
  EXPECT_EQ(io::read_cache_section(cache, "more"), std::vector<std::uint8_t>{});
  expect_same_network(net, io::read_network(cache));
  // No temporary file left behind.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 3u);  // g.gr, g.co, g.rsnet

  EXPECT_THROW(io::write_network_cache(net, cache, {CacheSection{"head", {}}}), Error);
  EXPECT_THROW(io::write_network_cache(net, cache, {CacheSection{"a_tag_much_too_long", {}}}),
               Error);
  // A network without coordinates round-trips too.
  RoadNetwork bare = net;
  bare.graph.coords.clear();
  io::write_network_cache(bare, cache);
  expect_same_network(bare, io::read_network_cache(cache));
}

TEST_F(NetworkCacheTest, CorruptionDetected) {
  const RoadNetwork net = small();
  const fs::path good = dir_ / "good.rsnet";
  io::write_network_cache(net, good, {CacheSection{"ch", {1, 2, 3}}});
  const std::string bytes = slurp(good);
  const auto check = [&](const std::string& content, const std::string& needle) {
    const fs::path bad = write("bad.rsnet", content);
    const std::string msg = error_of([&] { io::read_network_cache(bad); });
    EXPECT_NE(msg.find("bad.rsnet: network cache"), std::string::npos) << msg;
    EXPECT_NE(msg.find(needle), std::string::npos) << msg;
    EXPECT_NE(msg.find("rebuild it with `routesolve network build`"), std::string::npos) << msg;
  };
  // A flipped byte anywhere after the header, in the table or any section (the unknown one
  // included): a corrupt table is caught by its structure or the checksum, data by the checksum.
  for (std::size_t at = 32; at < bytes.size(); ++at) {
    std::string flipped = bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x10);
    check(flipped, "corrupt");
  }
  std::string data_flip = bytes;
  data_flip.back() = static_cast<char>(data_flip.back() ^ 0x10);
  check(data_flip, "checksum mismatch");
  check(bytes.substr(0, bytes.size() - 7), "truncated");
  check(bytes.substr(0, 20), "truncated");
  check(bytes + "xx", "trailing");
  std::string version = bytes;
  version[8] = 99;
  check(version, "version 99");
  std::string magic = bytes;
  magic[0] = 'X';
  check(magic, "wrong magic");
  check("", "truncated");
  // A stored checksum that does not match.
  std::string crc = bytes;
  crc[24] = static_cast<char>(crc[24] ^ 1);
  check(crc, "checksum mismatch");
  EXPECT_NE(error_of([&] { io::read_network_cache(dir_ / "none.rsnet"); }).find("none.rsnet"),
            std::string::npos);
}

}  // namespace
