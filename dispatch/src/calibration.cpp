// Device calibration files and the rates auto uses (calibration.hpp).

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include "device_rates.hpp"
#include "routesolve/cuda/cuda_backend.hpp"
#include "routesolve/error.hpp"
#include "routesolve/timing.hpp"

namespace routesolve::dispatch {
namespace fs = std::filesystem;

fs::path calibration_dir(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* dir = std::getenv("ROUTESOLVE_CALIBRATION_DIR"); dir != nullptr && *dir != '\0')
    return dir;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg != '\0')
    return fs::path(xdg) / "routesolve";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return fs::path(home) / ".config" / "routesolve";
  return ".routesolve";
}

fs::path calibration_file(int index, const std::string& dir) {
  return calibration_dir(dir) / ("device-" + std::to_string(index) + ".calibration");
}

void write_calibration(const fs::path& file, const std::string& device,
                       const cuda::DeviceRates& r) {
  std::error_code ec;
  if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
  std::ofstream out(file);
  if (!out) throw invalid_input(file.string(), "cannot write the calibration file");
  char line[256];
  out << "# routesolve device calibration (routesolve device-check --calibrate)\n";
  out << "device " << device << "\n";
  std::snprintf(line, sizeof line,
                "round_overhead_s %.6g\ndevice_row_s %.6g\nh2d_bytes_per_s %.6g\nfixed_s %.6g\n",
                r.round_overhead_s, r.device_row_s, r.h2d_bytes_per_s, r.fixed_s);
  out << line;
  if (!out) throw invalid_input(file.string(), "cannot write the calibration file");
}

std::optional<cuda::DeviceRates> read_calibration(const fs::path& file, const std::string& device) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  cuda::DeviceRates r;
  std::string name;
  int found = 0;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    if (text.empty() || text[0] == '#') continue;
    const std::size_t space = text.find(' ');
    const std::string key = text.substr(0, space),
                      value = space == std::string::npos ? "" : text.substr(space + 1);
    const std::string where = file.string() + ":" + std::to_string(number);
    if (key == "device") {
      name = value;
      continue;
    }
    double* field = key == "round_overhead_s"  ? &r.round_overhead_s
                    : key == "device_row_s"    ? &r.device_row_s
                    : key == "h2d_bytes_per_s" ? &r.h2d_bytes_per_s
                    : key == "fixed_s"         ? &r.fixed_s
                                               : nullptr;
    if (field == nullptr) throw invalid_input(where, "unknown key '" + key + "'");
    char* end = nullptr;
    *field = std::strtod(value.c_str(), &end);
    if (value.empty() || end == nullptr || *end != '\0' || !(*field >= 0.0))
      throw invalid_input(where, "'" + value + "' is not a non-negative number");
    ++found;
  }
  if (name != device) return std::nullopt;
  if (found != 4 || r.h2d_bytes_per_s <= 0.0)
    throw invalid_input(
        file.string(),
        "a calibration needs round_overhead_s, device_row_s, h2d_bytes_per_s > 0 and fixed_s");
  r.measured = true;
  r.source = file.string();
  return r;
}

cuda::DeviceRates device_rates(int index, const std::string& dir) {
  const cuda::SelfTestResult verdict = cuda::device_verdict(index);
  if (!verdict.passed) return {};
  if (auto file = read_calibration(calibration_file(index, dir), verdict.device)) return *file;
  return verdict.rates;
}

std::vector<std::string> calibrate_devices(int repetitions, const std::string& dir) {
  std::vector<std::string> lines;
  for (const cuda::DeviceInfo& d : cuda::devices()) {
    const cuda::SelfTestResult verdict = cuda::device_verdict(d.index);
    if (!verdict.passed) {
      lines.push_back(cuda::format_verdict(verdict) + "; not calibrated");
      continue;
    }
    const std::unique_ptr<cuda::SelfTestDevice> device = cuda::make_cuda_self_test_device(d.index);
    cuda::DeviceRates rates = cuda::measure_rates(*device, repetitions);
    rates.fixed_s = verdict.rates.fixed_s;
    const fs::path file = calibration_file(d.index, dir);
    write_calibration(file, verdict.device, rates);
    char line[512];
    std::snprintf(
        line, sizeof line,
        "device %d (%s): round %.3g us, %.3g ns per row, h2d %.3g GB/s, fixed %.3g s -> %s",
        d.index, verdict.device.c_str(), rates.round_overhead_s * 1e6, rates.device_row_s * 1e9,
        rates.h2d_bytes_per_s * 1e-9, rates.fixed_s, file.string().c_str());
    lines.emplace_back(line);
  }
  return lines;
}

}  // namespace routesolve::dispatch
