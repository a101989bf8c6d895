#pragma once
// End-to-end helpers for the service tests: a `routesolve serve` process started by the test on a
// free loopback port (the port it reports), and a small HTTP/1.1 client on plain sockets, so that
// tests can also send half requests, oversized bodies, or leave early. Everything is loopback,
// bounded by timeouts, and the process is killed if a test leaves it running.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace routesolve::test {

using namespace std::chrono_literals;

struct HttpReply {
  int status = 0;                              ///< 0: no answer (connection closed or timed out)
  std::map<std::string, std::string> headers;  ///< names in lower case
  std::string body;
};

/// A connected loopback socket (-1 on failure).
inline int connect_loopback(unsigned short port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

inline bool send_all(int fd, const std::string& data) {
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

/// Reads one response (Content-Length framed) within `timeout`.
inline HttpReply read_reply(int fd, std::chrono::milliseconds timeout) {
  HttpReply reply;
  std::string data;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::size_t header_end = std::string::npos, need = std::string::npos;
  char buf[65536];
  for (;;) {
    if (header_end == std::string::npos &&
        (header_end = data.find("\r\n\r\n")) != std::string::npos) {
      std::istringstream head(data.substr(0, header_end));
      std::string line;
      std::getline(head, line);
      if (line.size() > 12) reply.status = std::stoi(line.substr(9, 3));
      while (std::getline(head, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string name = line.substr(0, colon);
        for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        reply.headers[name] = line.substr(line.find_first_not_of(' ', colon + 1));
      }
      need = header_end + 4 +
             (reply.headers.contains("content-length") ? std::stoul(reply.headers["content-length"])
                                                       : 0);
    }
    if (need != std::string::npos && data.size() >= need) {
      reply.body = data.substr(header_end + 4, need - header_end - 4);
      return reply;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return HttpReply{};
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return HttpReply{};
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return need == std::string::npos ? HttpReply{} : reply;
    data.append(buf, static_cast<std::size_t>(n));
  }
}

/// One request on its own connection.
inline HttpReply http(unsigned short port, const std::string& method, const std::string& target,
                      const std::string& body = "", const std::string& extra_headers = "",
                      std::chrono::milliseconds timeout = 30s) {
  const int fd = connect_loopback(port);
  if (fd < 0) return {};
  std::string req = method + " " + target +
                    " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + extra_headers;
  if (method == "POST")
    req +=
        "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  req += "\r\n" + body;
  HttpReply r = send_all(fd, req) ? read_reply(fd, timeout) : HttpReply{};
  ::close(fd);
  return r;
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

/// `routesolve serve --port 0 ARGS`, its stderr in a file; ready() once /health answers 200.
class ServerProcess {
 public:
  ServerProcess(const std::vector<std::string>& args, const std::filesystem::path& log)
      : log_(log) {
    std::vector<std::string> argv = {(bin_dir() / "routesolve").string(), "serve", "--port", "0"};
    argv.insert(argv.end(), args.begin(), args.end());
    pid_ = ::fork();
    if (pid_ == 0) {
      const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(err, 2);
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 1);
      std::vector<char*> c;
      for (auto& a : argv) c.push_back(a.data());
      c.push_back(nullptr);
      ::execv(c[0], c.data());
      ::_exit(127);
    }
    // The port from the "listening" line.
    const std::regex listening(R"("event":"listening".*"port":(\d+))");
    for (int i = 0; i < 500 && port_ == 0; ++i) {
      std::smatch m;
      const std::string text = read_file(log_);
      if (std::regex_search(text, m, listening))
        port_ = static_cast<unsigned short>(std::stoi(m[1]));
      else
        std::this_thread::sleep_for(10ms);
    }
  }
  ~ServerProcess() {
    if (pid_ > 0 && !exited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  [[nodiscard]] unsigned short port() const { return port_; }
  [[nodiscard]] pid_t pid() const { return pid_; }
  [[nodiscard]] std::string log() const { return read_file(log_); }

  /// Waits (at most `timeout`) for GET /health to answer 200.
  bool ready(std::chrono::milliseconds timeout = 20s) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (port_ != 0 && std::chrono::steady_clock::now() < deadline) {
      if (http(port_, "GET", "/health", "", "", 2s).status == 200) return true;
      std::this_thread::sleep_for(20ms);
    }
    return false;
  }

  /// Sends a signal and waits (at most `timeout`) for the exit status (-1: still running or
  /// killed).
  int signal_and_wait(int sig, std::chrono::milliseconds timeout) {
    ::kill(pid_, sig);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(10ms);
    }
    return -1;
  }

  /// Resident memory (kB) from /proc.
  [[nodiscard]] long rss_kb() const {
    std::ifstream f("/proc/" + std::to_string(pid_) + "/status");
    std::string line;
    while (std::getline(f, line))
      if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return -1;
  }

 private:
  std::filesystem::path log_;
  pid_t pid_ = -1;
  unsigned short port_ = 0;
  bool exited_ = false;
};

}  // namespace routesolve::test
