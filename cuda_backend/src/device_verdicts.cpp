// The process's verdicts on its devices (self_test.hpp): one self-test per device index, run by
// the first caller while later callers of the same index wait, then kept for the process.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "routesolve/cuda/self_test.hpp"
#include "routesolve/error.hpp"

namespace routesolve::cuda {
namespace {

struct Verdict {
  std::once_flag tested;
  std::mutex mutex;  // guards result after the test (mark_device_unusable)
  SelfTestResult result;
};

struct Registry {
  std::mutex mutex;
  std::map<int, std::shared_ptr<Verdict>> verdicts;
  SelfTestDeviceFactory factory;
  std::size_t runs = 0;
};

Registry& registry() {
  static Registry r;
  return r;
}

std::shared_ptr<Verdict> slot(int index, SelfTestDeviceFactory* factory) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  auto& at = r.verdicts[index];
  if (!at) at = std::make_shared<Verdict>();
  if (factory != nullptr)
    *factory = r.factory ? r.factory : SelfTestDeviceFactory(make_cuda_self_test_device);
  return at;
}

/// The verdict of `index`, tested now when it is the first call for that index.
std::shared_ptr<Verdict> tested(int index) {
  Registry& r = registry();
  SelfTestDeviceFactory factory;
  const std::shared_ptr<Verdict> verdict = slot(index, &factory);
  std::call_once(verdict->tested, [&] {
    SelfTestResult result;
    result.index = index;
    try {
      const std::unique_ptr<SelfTestDevice> device = factory(index);
      result = run_self_test(*device, index);
    } catch (const Error& e) {  // the device could not be opened
      result.reason = e.what();
    }
    {
      const std::lock_guard lock(r.mutex);
      ++r.runs;
    }
    const std::lock_guard lock(verdict->mutex);
    verdict->result = std::move(result);
  });
  return verdict;
}

}  // namespace

SelfTestResult device_verdict(int index) {
  const auto verdict = tested(index);
  const std::lock_guard lock(verdict->mutex);
  return verdict->result;
}

void mark_device_unusable(int index, const std::string& reason) {
  const auto verdict = slot(index, nullptr);
  std::call_once(verdict->tested, [&] {  // not tested yet: no self-test for a device known bad
    const std::lock_guard lock(verdict->mutex);
    verdict->result.index = index;
    verdict->result.passed = true;  // overwritten below
  });
  const std::lock_guard lock(verdict->mutex);
  if (!verdict->result.passed) return;
  verdict->result.passed = false;
  verdict->result.reason = reason;
}

void set_self_test_device_factory(SelfTestDeviceFactory factory) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.factory = std::move(factory);
  r.verdicts.clear();
  r.runs = 0;
}

std::unique_ptr<SelfTestDevice> open_device(int index) {
  Registry& r = registry();
  SelfTestDeviceFactory factory;
  {
    const std::lock_guard lock(r.mutex);
    factory = r.factory ? r.factory : SelfTestDeviceFactory(make_cuda_self_test_device);
  }
  return factory(index);
}

bool devices_replaced() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  return static_cast<bool>(r.factory);
}

std::size_t self_test_runs() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  return r.runs;
}

}  // namespace routesolve::cuda
