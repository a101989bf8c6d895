#pragma once
// The shared server of the service tests (one per test binary): Liechtenstein's road network
// built once into a cache, the service on it with small limits so that every fault is cheap.

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"
#include "serve_support.hpp"

namespace routesolve::test {

class ServeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(temp_dir("service", "shared"));
    const auto pbf = datasets_dir() / "roads/osm/liechtenstein-latest.osm.pbf";
    if (!std::filesystem::exists(pbf)) return;
    network_ = new std::string((*dir_ / "li.rsnet").string());
    const ToolRun built = run_tool("network build " + pbf.string() + " -o " + *network_);
    ASSERT_EQ(built.exit_code, 0) << built.out;
    server_ = new ServerProcess(
        {"--network", "li=" + *network_, "--workers", "2", "--queue", "4", "--max-locations", "500",
         "--max-body", "1000000", "--read-timeout", "1", "--max-time-limit", "5"},
        *dir_ / "server.log");
    ASSERT_TRUE(server_->ready()) << server_->log();
  }
  static void TearDownTestSuite() {
    delete server_;
    delete network_;
    std::filesystem::remove_all(*dir_);
    delete dir_;
    server_ = nullptr;
    network_ = nullptr;
  }
  void SetUp() override {
    if (server_ == nullptr)
      GTEST_SKIP() << "Liechtenstein's OSM extract is not in " << datasets_dir();
  }

 public:
  static unsigned short port() { return server_->port(); }
  static const std::string& network() { return *network_; }
  static std::filesystem::path dir() { return *dir_; }
  static ServerProcess& server() { return *server_; }

 private:
  static inline std::filesystem::path* dir_ = nullptr;
  static inline std::string* network_ = nullptr;
  static inline ServerProcess* server_ = nullptr;
};

}  // namespace routesolve::test
