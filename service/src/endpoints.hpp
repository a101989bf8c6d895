#pragma once
// The endpoints that run on a worker: each turns a request into a response and never throws
// (errors become the 4xx/5xx answer of the protocol it speaks: VROOM's or OSRM's).

#include <atomic>

#include "http_text.hpp"
#include "metrics.hpp"
#include "networks.hpp"
#include "routesolve/service/service.hpp"

namespace routesolve::service {

struct Context {
  ServiceOptions options;
  Networks& networks;
  Metrics& metrics;
};

/// POST / : a VROOM problem, answered with the VROOM solution (`routesolve solve`'s output).
Response solve_endpoint(const Context& context, const Request& request,
                        const std::atomic<bool>& stop);

/// GET /table/v1/{profile}/{lon,lat;...}: OSRM's table service.
Response table_endpoint(const Context& context, const Request& request);

/// POST /matrix {"locations": [[lon, lat], ...]}: `routesolve matrix`'s JSON, or its binary
/// format when the client accepts application/octet-stream.
Response matrix_endpoint(const Context& context, const Request& request);

}  // namespace routesolve::service
