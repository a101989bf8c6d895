// batch_status.json, the resume protocol of `routesolve batch` (routesolve/io/batch_status.hpp).

#include "routesolve/io/batch_status.hpp"

#include <fmt/core.h>

#include <exception>
#include <nlohmann/json.hpp>
#include <system_error>
#include <utility>

#include "routesolve/io/atomic_file.hpp"
#include "routesolve/io/formats.hpp"

namespace routesolve::io {
namespace fs = std::filesystem;

std::string input_stamp(const fs::path& file) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec) return "";
  const auto mtime = fs::last_write_time(file, ec);
  if (ec) return "";
  return fmt::format("{}:{}", size, mtime.time_since_epoch().count());
}

BatchStatus::BatchStatus(const fs::path& out_dir, std::string options)
    : path_(out_dir / kBatchStatusFile), options_(std::move(options)) {}

std::string BatchStatus::load_previous() {
  if (!fs::exists(path_)) return "";
  try {
    const nlohmann::json j = nlohmann::json::parse(read_text_file(path_));
    if (j.value("version", 0) != 1 || j.value("options", std::string()) != options_ ||
        !j.contains("files") || !j["files"].is_object())
      return path_.string() + " was written with other options: solving every file again";
    for (const auto& [file, r] : j["files"].items()) {
      if (!r.is_object()) continue;
      BatchRecord& b = previous_[file];
      b.status = r.value("status", std::string());
      b.input = r.value("input", std::string());
      b.output = r.value("output", std::string());
      b.tasks = r.value("tasks", std::size_t{0});
      b.routes = r.value("routes", std::size_t{0});
      b.unassigned = r.value("unassigned", std::size_t{0});
      b.cost = r.value("cost", 0.0);
      b.seconds = r.value("seconds", 0.0);
    }
  } catch (const std::exception& e) {
    previous_.clear();
    return "ignoring " + path_.string() + ": " + e.what();
  }
  return "";
}

std::optional<BatchRecord> BatchStatus::keep(const std::string& file, const std::string& stamp,
                                             const fs::path& output) {
  const auto it = previous_.find(file);
  if (it == previous_.end() || it->second.status != "ok" || stamp.empty() ||
      it->second.input != stamp || !fs::exists(output))
    return std::nullopt;
  current_[file] = it->second;
  return it->second;
}

void BatchStatus::record(const std::string& file, const BatchRecord& record) {
  current_[file] = record;
  write();
}

void BatchStatus::write() const {
  nlohmann::json files = nlohmann::json::object();
  for (const auto& [file, r] : current_)
    files[file] = {{"status", r.status},         {"input", r.input},    {"output", r.output},
                   {"tasks", r.tasks},           {"routes", r.routes},  {"cost", r.cost},
                   {"unassigned", r.unassigned}, {"seconds", r.seconds}};
  const nlohmann::json status = {
      {"version", 1}, {"options", options_}, {"files", std::move(files)}};
  write_file_atomically(path_, status.dump(1) + "\n");
}

}  // namespace routesolve::io
