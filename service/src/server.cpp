// Boost.Beast sessions: header first (so an oversized body is refused unread), the body within
// the read timeout, the endpoint inline (health, metrics) or on the worker pool (solve, table,
// matrix) while the connection is watched for the client leaving, the answer within the write
// timeout, then the next request of a keep-alive connection.

#include "server.hpp"

#include <fmt/core.h>
#include <sys/socket.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <optional>
#include <thread>
#include <vector>

#include "routesolve/error.hpp"
#include "routesolve/timing.hpp"

namespace routesolve::service {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

/// Headers (the request line included: a /table URL carries its points) up to 1 MiB.
constexpr std::uint32_t kHeaderLimit = 1u << 20;
/// What a connection refused with 413 may still send before it is closed (not stored).
constexpr std::size_t kDrainLimit = 1u << 20;

std::chrono::milliseconds ms(double seconds) {
  return std::chrono::milliseconds(static_cast<long>(seconds * 1000));
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, ServerState& state) : stream_(std::move(socket)), state_(state) {
    beast::error_code ec;
    const auto remote = stream_.socket().remote_endpoint(ec);
    remote_ = ec ? "?" : remote.address().to_string() + ":" + std::to_string(remote.port());
    ++state_.context.metrics.connections_open;
  }
  ~Session() { --state_.context.metrics.connections_open; }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void start() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read_header(true); });
  }

 private:
  void read_header(bool first) {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(state_.context.options.max_body);
    stream_.expires_after(
        ms(first ? state_.context.options.read_timeout_s : state_.context.options.idle_timeout_s));
    http::async_read_header(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_header(ec); });
  }

  void on_header(beast::error_code ec) {
    if (ec == http::error::header_limit) {
      begin_request("?", "?");
      return answer(vroom_error(431, 2, "header: the request line and headers exceed 1 MiB"),
                    false);
    }
    if (ec == http::error::body_limit) {  // Content-Length above the limit, seen with the header
      begin_request(std::string(parser_->get().method_string()),
                    std::string(parser_->get().target()));
      return refuse_body(parser_->content_length().value_or(0));
    }
    if (ec) return close();  // end of stream, timeout, reset: nothing to answer
    const auto& req = parser_->get();
    begin_request(std::string(req.method_string()), std::string(req.target()));
    stream_.expires_after(ms(state_.context.options.read_timeout_s));
    if (const auto length = parser_->content_length();
        length && *length > state_.context.options.max_body)
      return refuse_body(*length);
    if (beast::iequals(req[http::field::expect], "100-continue")) {
      auto cont = std::make_shared<http::response<http::empty_body>>(http::status::continue_,
                                                                     req.version());
      return http::async_write(stream_, *cont,
                               [self = shared_from_this(), cont](beast::error_code e, std::size_t) {
                                 if (e) return self->close();
                                 self->read_body();
                               });
    }
    read_body();
  }

  void read_body() {
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_body(ec); });
  }

  void on_body(beast::error_code ec) {
    if (ec == http::error::body_limit) return refuse_body(0);
    if (ec) {
      status_ = ec == beast::error::timeout ? 408 : 400;  // logged; a half request gets no answer
      return close();
    }
    http::request<http::string_body> req = parser_->release();
    keep_alive_ = req.keep_alive();
    request_.method = std::string(req.method_string());
    split_target(std::string_view(req.target().data(), req.target().size()), request_.path,
                 request_.query);
    request_.accept = std::string(req[http::field::accept]);
    request_.body = std::move(req.body());
    bytes_in_ = request_.body.size();
    endpoint_ = endpoint_of(request_.method, request_.path);
    route();
  }

  void route() {
    Context& c = state_.context;
    const std::string& m = request_.method;
    if (endpoint_ == "health") {
      if (c.networks.ready())
        return answer({200, "application/json", "{\"status\":\"ok\"}"}, keep_alive_);
      const std::string why = c.networks.error();
      return answer({503, "application/json",
                     "{\"status\":" + json_string(why.empty() ? "loading" : "failed") +
                         (why.empty() ? "" : ",\"error\":" + json_string(why)) + "}"},
                    keep_alive_);
    }
    if (endpoint_ == "metrics")
      return answer({200, "text/plain; version=0.0.4",
                     c.metrics.text(state_.pool.queued(), state_.pool.busy(), state_.pool.workers(),
                                    c.networks.ready(), c.options.backend)},
                    keep_alive_);
    if (endpoint_ == "other") {
      const bool known = request_.path == "/" || request_.path == "/matrix" ||
                         request_.path == "/health" || request_.path == "/metrics" ||
                         request_.path.starts_with("/table/");
      return answer(
          known ? vroom_error(405, 2, "method " + m + " is not allowed on " + request_.path)
                : vroom_error(404, 2,
                              "path: no endpoint " + request_.path +
                                  " (POST /, GET /table/v1/driving/..., POST /matrix, GET /health, "
                                  "GET /metrics)"),
          keep_alive_);
    }
    if (state_.stopping) return answer(vroom_error(503, 1, "the service is shutting down"), false);
    submit();
  }

  void submit() {
    auto job = std::make_shared<Job>();
    const std::string endpoint = endpoint_;
    job->run = [self = shared_from_this(), endpoint](Job& j) {
      Response r;
      const Context& c = self->state_.context;
      if (endpoint == "solve")
        r = solve_endpoint(c, self->request_, j.stop);
      else if (endpoint == "table")
        r = table_endpoint(c, self->request_);
      else
        r = matrix_endpoint(c, self->request_);
      if (j.stopped_by_limit) ++self->state_.context.metrics.stopped_by_limit;
      net::post(self->stream_.get_executor(),
                [self, r = std::move(r)]() mutable { self->on_done(std::move(r)); });
    };
    if (!state_.pool.submit(job)) {
      ++state_.context.metrics.rejected_queue_full;
      return answer(vroom_error(503, 1, "every worker is busy and the queue is full: retry later"),
                    keep_alive_);
    }
    job_ = std::move(job);
    stream_.expires_never();
    watch_client();
  }

  /// While a job runs, a readable socket with nothing to read means the client left: its job stops.
  void watch_client() {
    stream_.socket().async_wait(
        tcp::socket::wait_read, [self = shared_from_this()](beast::error_code ec) {
          if (ec || !self->job_) return;
          char c;
          const ssize_t n =
              ::recv(self->stream_.socket().native_handle(), &c, 1, MSG_PEEK | MSG_DONTWAIT);
          if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
            self->client_gone_ = true;
            self->job_->stop = true;
            ++self->state_.context.metrics.client_disconnects;
          }
        });
  }

  void on_done(Response r) {
    job_.reset();
    beast::error_code ignored;
    stream_.socket().cancel(ignored);
    if (client_gone_) {
      status_ = 499;  // nginx's "client closed request", for the log only
      return close();
    }
    answer(std::move(r), keep_alive_);
  }

  /// 413 without reading the body; what the client still sends is drained (up to a bound) so
  /// that it sees the answer instead of a reset.
  void refuse_body(std::uint64_t length) {
    const std::string size = length > 0 ? " (" + std::to_string(length) + " bytes)" : "";
    answer(vroom_error(413, 2,
                       "body" + size + ": larger than the limit of " +
                           std::to_string(state_.context.options.max_body) + " bytes (--max-body)"),
           false);
  }

  void answer(Response r, bool keep_alive) {
    if (state_.stopping) keep_alive = false;
    status_ = r.status;
    res_ = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(r.status),
                                                               11);
    res_->set(http::field::server, "routesolve");
    res_->set(http::field::content_type, r.content_type);
    if (r.status == 503)
      res_->set(http::field::retry_after, std::to_string(state_.context.options.retry_after_s));
    res_->keep_alive(keep_alive);
    res_->body() = std::move(r.body);
    res_->prepare_payload();
    bytes_out_ = res_->body().size();
    // Counted and logged before the write: a client that has read the answer and asks /metrics
    // at once must find its request counted.
    record_request();
    stream_.expires_after(ms(state_.context.options.write_timeout_s));
    http::async_write(stream_, *res_,
                      [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
                        self->res_.reset();
                        if (ec) return self->close();
                        self->end_request();
                        if (!keep_alive) return self->linger_close();
                        self->read_header(false);
                      });
  }

  void begin_request(std::string method, std::string target) {
    t0_ = Clock::now();
    in_request_ = true;
    ++state_.active;
    method_ = std::move(method);
    target_ = std::move(target);
    if (target_.size() > 200) target_ = target_.substr(0, 200) + "...";
    status_ = 0;
    bytes_in_ = bytes_out_ = 0;
    endpoint_ = "other";
    client_gone_ = false;
    recorded_ = false;
  }

  /// The request counters and the access log line (milliseconds until the answer was ready to
  /// write), once per request.
  void record_request() {
    if (!in_request_ || recorded_) return;
    recorded_ = true;
    Context& c = state_.context;
    c.metrics.count_request(endpoint_, status_);
    if (c.options.access_log) {
      const std::string line = fmt::format(
          "{{\"time\":\"{}\",\"remote\":\"{}\",\"method\":{},\"target\":{},\"endpoint\":\"{}\","
          "\"status\":{},"
          "\"bytes_in\":{},\"bytes_out\":{},\"ms\":{:.3f}}}\n",
          utc_now(), remote_, json_string(method_), json_string(target_), endpoint_, status_,
          bytes_in_, bytes_out_, seconds_since(t0_) * 1000.0);
      const std::lock_guard lock(state_.log_mutex);
      std::fputs(line.c_str(), stderr);
    }
  }

  /// The request is over (answered, or the connection closed): recorded if it was not yet.
  void end_request() {
    if (!in_request_) return;
    record_request();
    in_request_ = false;
    --state_.active;
  }

  void linger_close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.expires_after(std::chrono::seconds(2));
    drain();
  }

  void drain() {
    auto buf = std::make_shared<std::vector<char>>(65536);
    stream_.async_read_some(net::buffer(*buf),
                            [self = shared_from_this(), buf](beast::error_code ec, std::size_t n) {
                              self->drained_ += n;
                              if (ec || self->drained_ > kDrainLimit) return self->close();
                              self->drain();
                            });
  }

  void close() {
    if (in_request_) {
      if (status_ == 0) status_ = 400;
      end_request();
    }
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream_.close();
  }

  beast::tcp_stream stream_;
  ServerState& state_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<http::response<http::string_body>> res_;
  std::shared_ptr<Job> job_;
  Request request_;
  std::string remote_, method_, target_, endpoint_ = "other";
  Clock::time_point t0_{};
  unsigned status_ = 0;
  std::size_t bytes_in_ = 0, bytes_out_ = 0, drained_ = 0;
  bool keep_alive_ = false, in_request_ = false, client_gone_ = false, recorded_ = false;
};

void accept_next(tcp::acceptor& acceptor, net::io_context& ioc, ServerState& state) {
  acceptor.async_accept(net::make_strand(ioc),
                        [&acceptor, &ioc, &state](beast::error_code ec, tcp::socket socket) {
                          if (ec == net::error::operation_aborted || !acceptor.is_open()) return;
                          if (!ec) std::make_shared<Session>(std::move(socket), state)->start();
                          accept_next(acceptor, ioc, state);
                        });
}

}  // namespace

std::string endpoint_of(const std::string& method, const std::string& path) {
  if (method == "POST" && path == "/") return "solve";
  if (method == "GET" && path.starts_with("/table/v1/")) return "table";
  if (method == "POST" && path == "/matrix") return "matrix";
  if (method == "GET" && path == "/health") return "health";
  if (method == "GET" && path == "/metrics") return "metrics";
  return "other";
}

void serve_http(ServerState& state, const std::function<void(unsigned short)>& on_listening) {
  const ServiceOptions& o = state.context.options;
  net::io_context ioc(static_cast<int>(o.io_threads == 0 ? 1 : o.io_threads));
  tcp::acceptor acceptor(ioc);
  beast::error_code ec;
  const auto address = net::ip::make_address(o.host, ec);
  if (ec) throw invalid_input("--host", "not an IP address: \"" + o.host + "\"");
  const tcp::endpoint endpoint(address, o.port);
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec)
    throw Error(ErrorCode::InvalidInput,
                fmt::format("cannot listen on {}:{}: {}", o.host, o.port, ec.message()));
  const unsigned short port = acceptor.local_endpoint().port();
  fmt::print(stderr, "{{\"time\":\"{}\",\"event\":\"listening\",\"host\":\"{}\",\"port\":{}}}\n",
             utc_now(), o.host, port);
  if (on_listening) on_listening(port);
  accept_next(acceptor, ioc, state);

  // SIGTERM/SIGINT: stop accepting, stop the running solves (each answers its best solution),
  // answer what is held, then leave the loop.
  net::signal_set signals(ioc, SIGTERM, SIGINT);
  net::steady_timer drain_timer(ioc);
  const auto deadline = std::make_shared<Clock::time_point>();
  std::function<void()> check_drained = [&] {
    if ((state.active == 0 && state.pool.busy() == 0 && state.pool.queued() == 0) ||
        Clock::now() > *deadline) {
      ioc.stop();
      return;
    }
    drain_timer.expires_after(std::chrono::milliseconds(20));
    drain_timer.async_wait([&](beast::error_code) { check_drained(); });
  };
  signals.async_wait([&](beast::error_code e, int signal) {
    if (e) return;
    fmt::print(
        stderr,
        "{{\"time\":\"{}\",\"event\":\"shutdown\",\"signal\":{},\"running\":{},\"queued\":{}}}\n",
        utc_now(), signal, state.pool.busy(), state.pool.queued());
    state.stopping = true;
    beast::error_code ignored;
    acceptor.close(ignored);
    state.pool.stop_all();
    *deadline = Clock::now() + ms(o.write_timeout_s + 10.0);
    check_drained();
  });

  std::vector<std::thread> threads;
  for (unsigned i = 1; i < o.io_threads; ++i) threads.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (auto& t : threads) t.join();
  // Jobs still running past the deadline post to the stopped loop: it must outlive them.
  state.pool.stop_all();
  state.pool.join();
}

}  // namespace routesolve::service
