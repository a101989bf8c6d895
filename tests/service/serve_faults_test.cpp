// The service under bad input and load: every error case a 4xx naming the field (and the server
// still serving), oversized bodies refused unread, slow clients timed out, more clients than
// workers (answered or 503 + Retry-After), a client leaving stops its solve, SIGTERM during a
// solve answers it with its best solution and exits 0. Loopback only, bounded in count and time.

#include <atomic>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "serve_fixture.hpp"

namespace routesolve::test {
namespace {

using nlohmann::json;

/// A problem that keeps a solve busy for its time limit (Solomon C101-like, great-circle).
std::string long_solve(double limit_s) {
  json doc;
  doc["vehicles"].push_back(
      {{"id", 1}, {"start", {9.52, 47.14}}, {"end", {9.52, 47.14}}, {"capacity", {1000}}});
  doc["vehicles"].push_back({{"id", 2}, {"start", {9.51, 47.16}}, {"capacity", {1000}}});
  for (int i = 0; i < 60; ++i)
    doc["jobs"].push_back({{"id", i + 1},
                           {"location", {9.47 + 0.002 * (i % 13), 47.05 + 0.003 * (i % 29)}},
                           {"delivery", {1}}});
  doc["options"] = {{"l", limit_s}};
  return doc.dump();
}

void expect_error(const HttpReply& r, int status, const std::string& field) {
  EXPECT_EQ(r.status, status) << r.body;
  const json body = json::parse(r.body, nullptr, false);
  ASSERT_FALSE(body.is_discarded()) << r.body;
  const std::string message = body.contains("error") ? body["error"].get<std::string>()
                                                     : body["message"].get<std::string>();
  EXPECT_NE(message.find(field), std::string::npos) << "expected '" << field << "' in: " << message;
}

TEST_F(ServeTest, EachBadRequestIsA4xxNamingTheField) {
  const unsigned short p = port();
  expect_error(http(p, "POST", "/", "{\"vehicles\": [}"), 400, "malformed JSON");
  expect_error(http(p, "POST", "/", "{\"vehicles\": 3, \"jobs\": []}"), 400, "vehicles");
  expect_error(
      http(p, "POST", "/", "{\"vehicles\": [{\"id\": 1, \"capacity\": [\"x\"]}], \"jobs\": []}"),
      400, "vehicles[0].capacity");
  json fleet = json::parse(read_file(source_dir() / "examples/fleet_coordinates.json"));
  fleet["options"] = {{"g", "yes"}};
  expect_error(http(p, "POST", "/", fleet.dump()), 400, "options.g");
  fleet["options"] = {{"l", -1}};
  expect_error(http(p, "POST", "/", fleet.dump()), 400, "options.l");
  fleet.erase("options");
  expect_error(http(p, "POST", "/?network=atlantis", fleet.dump()), 400, "network");
  fleet["vehicles"][0]["start"] = {-30.0, 10.0};  // the Atlantic: no road
  const HttpReply off = http(p, "POST", "/", fleet.dump());
  expect_error(off, 400, "vehicles[0]");
  EXPECT_EQ(json::parse(off.body)["code"], 3);  // VROOM's routing error

  expect_error(http(p, "GET", "/table/v1/driving/9.52,47.14;-30,10"), 400, "coordinates[1]");
  expect_error(http(p, "GET", "/table/v1/driving/9.52,47.14;abc"), 400, "coordinates[1]");
  expect_error(http(p, "GET", "/table/v1/driving/9.52,47.14;9.53,47.15?sources=5"), 400,
               "sources[0]");
  expect_error(http(p, "GET", "/table/v1/driving/9.52,47.14;9.53,47.15?annotations=speed"), 400,
               "annotations");
  expect_error(http(p, "GET", "/table/v1/driving/9.52,47.14;9.53,47.15?network=x"), 400, "network");
  std::string many = "/table/v1/driving/";
  for (int i = 0; i < 10000; ++i) {
    if (i > 0) many += ';';
    many += std::to_string(9.5 + i * 1e-6);
    many += ",47.14";
  }
  const HttpReply big = http(p, "GET", many);
  expect_error(big, 400, "coordinates");
  EXPECT_EQ(json::parse(big.body)["code"], "TooBig");
  expect_error(http(p, "POST", "/matrix", "{\"locations\": [[9.52, 47.14], \"x\"]}"), 400,
               "locations[1]");
  expect_error(http(p, "POST", "/matrix", "{\"points\": []}"), 400, "locations");
  expect_error(http(p, "POST", "/matrix", "[1,"), 400, "body");
  expect_error(http(p, "GET", "/nowhere"), 404, "path");
  expect_error(http(p, "GET", "/matrix"), 405, "GET");
  EXPECT_EQ(http(p, "GET", "/health").status, 200);  // still serving
}

TEST_F(ServeTest, OversizedBodyIs413WithoutBeingRead) {
  const int fd = connect_loopback(port());
  ASSERT_GE(fd, 0);
  // Announces 50 MB, sends nothing of it: the answer comes from the header alone.
  ASSERT_TRUE(send_all(fd,
                       "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: "
                       "application/json\r\nContent-Length: 50000000\r\n\r\n"));
  const HttpReply r = read_reply(fd, 5s);
  ::close(fd);
  expect_error(r, 413, "--max-body");
  EXPECT_EQ(http(port(), "GET", "/health").status, 200);
}

TEST_F(ServeTest, HalfRequestIsTimedOutWithoutHoldingAWorker) {
  const int fd = connect_loopback(port());
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(send_all(fd, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"vehi"));
  // Meanwhile others are served; both workers are free (the body never arrived).
  const HttpReply other =
      http(port(), "POST", "/", read_file(source_dir() / "examples/fleet.json"));
  EXPECT_EQ(other.status, 200);
  // --read-timeout 1: the server closes the connection.
  pollfd pfd{fd, POLLIN, 0};
  ASSERT_EQ(::poll(&pfd, 1, 5000), 1);
  char c;
  EXPECT_LE(::recv(fd, &c, 1, 0), 0);
  ::close(fd);
}

TEST(ServeDisconnect, ClientLeavingStopsItsSolve) {
  // The solve may run an hour (no cap below that): only the client's leaving can free the
  // worker within the waits below, which are hang guards, not speed goals (a loaded machine
  // takes longer, never fails; an idle one frees the worker in about 0.1 s).
  const auto dir = temp_dir("service", "disconnect");
  ServerProcess server({"--workers", "1", "--max-time-limit", "3600", "--no-access-log"},
                       dir / "log");
  ASSERT_TRUE(server.ready()) << server.log();
  auto wait_for = [&](const std::string& line) {
    std::string metrics;
    for (const auto t0 = std::chrono::steady_clock::now();
         std::chrono::steady_clock::now() - t0 < 600s;) {
      metrics = http(server.port(), "GET", "/metrics").body;
      if (metrics.find(line) != std::string::npos) break;
      std::this_thread::sleep_for(20ms);
    }
    return metrics;
  };
  const int fd = connect_loopback(server.port());
  ASSERT_GE(fd, 0);
  const std::string body = long_solve(3600.0);
  ASSERT_TRUE(send_all(fd, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                               std::to_string(body.size()) + "\r\n\r\n" + body));
  const std::string running = wait_for("routesolve_workers_busy 1");
  ASSERT_NE(running.find("routesolve_workers_busy 1"), std::string::npos) << running;
  ::close(fd);
  const std::string metrics = wait_for("routesolve_workers_busy 0");
  EXPECT_NE(metrics.find("routesolve_workers_busy 0"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("routesolve_client_disconnects_total 1"), std::string::npos) << metrics;
  EXPECT_EQ(server.signal_and_wait(SIGTERM, 5s), 0);
  std::filesystem::remove_all(dir);
}

TEST(ServeLoad, MoreClientsThanWorkersAreAnsweredOr503) {
  const auto dir = temp_dir("service", "load");
  ServerProcess server(
      {"--workers", "1", "--queue", "1", "--max-time-limit", "2", "--no-access-log"}, dir / "log");
  ASSERT_TRUE(server.ready()) << server.log();
  const std::string body = long_solve(0.4);
  std::vector<std::future<HttpReply>> replies;
  for (int i = 0; i < 8; ++i)
    replies.push_back(std::async(std::launch::async,
                                 [&] { return http(server.port(), "POST", "/", body, "", 10s); }));
  int ok = 0, busy = 0;
  for (auto& f : replies) {
    const HttpReply r = f.get();
    if (r.status == 200) {
      ++ok;
      EXPECT_EQ(json::parse(r.body)["code"], 0);
    } else {
      EXPECT_EQ(r.status, 503) << r.body;
      EXPECT_EQ(r.headers.at("retry-after"), "1");
      EXPECT_EQ(json::parse(r.body)["code"], 1);
      ++busy;
    }
  }
  EXPECT_GE(ok, 1);
  EXPECT_GE(busy, 1);  // one running, one queued: the others are refused at once
  EXPECT_LE(ok, 8 - busy);
  EXPECT_EQ(server.signal_and_wait(SIGTERM, 5s), 0);
  std::filesystem::remove_all(dir);
}

TEST(ServeShutdown, SigtermAnswersTheRunningSolveWithItsBestAndExitsZero) {
  const auto dir = temp_dir("service", "sigterm");
  ServerProcess server({"--workers", "1", "--max-time-limit", "30"}, dir / "log");
  ASSERT_TRUE(server.ready()) << server.log();
  const std::string body = long_solve(20.0);
  auto reply = std::async(std::launch::async,
                          [&] { return http(server.port(), "POST", "/", body, "", 15s); });
  std::this_thread::sleep_for(500ms);
  // The 20 s solve is answered before the client's 15 s timeout and the process exits within
  // signal_and_wait's bound: both are hang guards, not speed goals.
  const int status = server.signal_and_wait(SIGTERM, 10s);
  const HttpReply r = reply.get();
  EXPECT_EQ(status, 0) << server.log();
  ASSERT_EQ(r.status, 200) << r.body;
  const json answer = json::parse(r.body);
  EXPECT_EQ(answer["code"], 0);
  EXPECT_EQ(answer["summary"]["unassigned"], 0);
  EXPECT_NE(server.log().find("\"event\":\"shutdown\""), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace routesolve::test
