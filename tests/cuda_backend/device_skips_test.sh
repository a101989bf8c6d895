#!/usr/bin/env bash
# The device test step's skip rule (scripts/device-skips) on GoogleTest XML reports recorded
# without a device (gtest_reports/*_no_device.xml) and as they read on one (*_on_device.xml):
# only a skip whose reason begins with "no CUDA device" fails; other skips, including those whose
# reason names a device ("a CUDA device is present"), are allowed; a missing or truncated report
# is an error of its own.
set -u
rule=$1
reports=$(dirname "$0")/gtest_reports
fail() { echo "FAIL: $*"; exit 1; }

out=$("$rule" "$reports/cuda_backend_on_device.xml"); rc=$?
[ "$rc" -eq 0 ] || fail "on a device: expected exit 0, got $rc: $out"
grep -q "CudaBackend.MakeThrowsDeviceErrorWithoutDevice skipped (allowed): a CUDA device is present" <<<"$out" ||
  fail "the skip that names a present device is not listed as allowed: $out"
grep -q "^9 tests in 1 reports; 0 skipped for lack of a device, 1 other skips$" <<<"$out" || fail "counts: $out"

out=$("$rule" "$reports/cuda_backend_no_device.xml"); rc=$?
[ "$rc" -eq 1 ] || fail "without a device: expected exit 1, got $rc: $out"
[ "$(grep -c 'skipped for lack of a device: no CUDA device: ' <<<"$out")" -eq 5 ] ||
  fail "expected the 5 device tests named: $out"
grep -q "cuda_backend_no_device: Transfers/DeviceEvalModes.LargeBatch/Naive skipped for lack of a device" <<<"$out" ||
  fail "a parameterised test is not named: $out"

# Dataset skips are allowed; the one device skip among them fails the report.
json=$(mktemp)
trap 'rm -f "$json"' EXIT
out=$("$rule" --json "$json" "$reports/insertion_no_device.xml" "$reports/cuda_backend_on_device.xml"); rc=$?
[ "$rc" -eq 1 ] || fail "mixed skips: expected exit 1, got $rc: $out"
[ "$(grep -c 'skipped for lack of a device:' <<<"$out")" -eq 1 ] || fail "expected one device skip: $out"
grep -q 'EngineParityDatasets.LiLim skipped (allowed): no Li & Lim instances' <<<"$out" || fail "dataset skip: $out"
python3 - "$json" <<'PY' || fail "JSON counts"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["tests"] == 14, doc["tests"]
assert [s["test"] for s in doc["skipped_for_lack_of_device"]] == ["InsertionDevice.DeviceEngineEqualsTheHostTwin"], doc
assert len(doc["other_skips"]) == 4, doc["other_skips"]
PY

err=$("$rule" "$reports/truncated.xml" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] && grep -q "truncated.xml: not a GoogleTest XML report" <<<"$err" || fail "truncated report: $rc $err"
err=$("$rule" "$reports/cuda_backend_on_device.xml" "$reports/absent.xml" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] && grep -q "absent.xml: no report" <<<"$err" || fail "missing report: $rc $err"
echo "ok"
