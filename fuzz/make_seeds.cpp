// Writes the binary fuzz seeds that cannot be typed by hand into <corpus>/network_cache and
// <corpus>/osm_pbf: small .rsnet caches (with and without coordinates and an extra section) and a
// small OSM .pbf (prefixed with the osm_pbf target's container byte, 0 = PBF).
// Usage: fuzz_make_seeds fuzz/corpus

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <osmium/builder/attr.hpp>
#include <osmium/io/pbf_output.hpp>
#include <osmium/io/writer.hpp>
#include <osmium/memory/buffer.hpp>
#include <string>

#include "routesolve/io/road_formats.hpp"

namespace fs = std::filesystem;

namespace {
void write_text(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
}

std::string read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_make_seeds CORPUS_DIR\n");
    return 2;
  }
  const fs::path corpus = argv[1];
  const fs::path tmp = fs::temp_directory_path() / "routesolve-fuzz-seeds";
  fs::create_directories(tmp);
  fs::create_directories(corpus / "network_cache");
  fs::create_directories(corpus / "osm_pbf");

  // Network caches from a 5-node DIMACS graph.
  write_text(tmp / "g.gr",
             "p sp 5 7\na 1 2 10\na 2 3 20\na 3 1 5\na 3 4 7\na 4 5 3\na 5 3 9\na 2 1 11\n");
  write_text(tmp / "g.co",
             "p aux sp co 5\nv 1 9500000 47100000\nv 2 9510000 47110000\nv 3 9520000 47100000\n"
             "v 4 9530000 47120000\nv 5 9540000 47130000\n");
  const auto plain = routesolve::io::read_dimacs(tmp / "g.gr");
  const auto with_coords = routesolve::io::read_dimacs(tmp / "g.gr", tmp / "g.co");
  routesolve::io::write_network_cache(plain, corpus / "network_cache" / "plain.rsnet");
  routesolve::io::write_network_cache(with_coords, corpus / "network_cache" / "coords.rsnet");
  routesolve::io::write_network_cache(with_coords, corpus / "network_cache" / "extra.rsnet",
                                      {{"ch", {1, 2, 3, 4, 5, 6, 7, 8}}, {"note", {'h', 'i'}}});

  // A small OSM .pbf: a residential loop with a oneway primary road through it.
  {
    using namespace osmium::builder::attr;  // NOLINT: the attribute DSL
    osmium::memory::Buffer buffer{4096, osmium::memory::Buffer::auto_grow::yes};
    for (int i = 1; i <= 6; ++i)
      osmium::builder::add_node(buffer, _id(i), _version(1),
                                _location(9.50 + 0.001 * i, 47.10 + 0.0005 * (i % 3)));
    osmium::builder::add_way(buffer, _id(100), _version(1), _nodes({1, 2, 3, 4, 1}),
                             _tag("highway", "residential"), _tag("maxspeed", "30"));
    osmium::builder::add_way(buffer, _id(101), _version(1), _nodes({3, 5, 6}),
                             _tag("highway", "primary"), _tag("oneway", "yes"),
                             _tag("maxspeed", "50 mph"));
    osmium::builder::add_way(buffer, _id(102), _version(1), _nodes({6, 2}),
                             _tag("highway", "service"), _tag("service", "parking_aisle"));
    const fs::path pbf = tmp / "seed.osm.pbf";
    fs::remove(pbf);
    osmium::io::Writer writer{pbf.string()};
    writer(std::move(buffer));
    writer.close();
    write_text(corpus / "osm_pbf" / "small.pbf.seed", std::string(1, '\0') + read_bytes(pbf));
  }
  fs::remove_all(tmp);
  std::printf("wrote seeds under %s\n", corpus.string().c_str());
  return 0;
}
