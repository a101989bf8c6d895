#!/usr/bin/env bash
# scripts/gpu-kit --check where no GPU is: the kit is assembled from this build (into a scratch
# folder) under 60 MiB, gpu-kit/run's preflight passes (every binary's libraries are the runtimes,
# the driver or the kit's own; every binary starts; every dataset it names is in the kit), and
# the run stops at "no CUDA device" with exit 3, with the machine's runtime and with the kit's own
# (GPU_KIT_RUNTIME=kit, as on a machine with an older glibc). Skipped (77) when the build has no CUDA, and on
# a machine whose device answers.
#   gpu_kit_test.sh SOURCE_DIR BUILD_DIR DATASETS
set -u
src=$1 build=$2 datasets=$3
fail() { echo "FAIL: $*"; exit 1; }
bash -n "$src/scripts/gpu-kit" && bash -n "$src/scripts/gpu-kit-run" || fail "syntax"
{ grep -q '^ROUTESOLVE_CUDA:STRING=\(ON\|AUTO\)$' "$build/CMakeCache.txt" 2>/dev/null &&
  grep '^CMAKE_CUDA_COMPILER:' "$build/CMakeCache.txt" | grep -qv 'NOTFOUND\|=$'; } ||
  { echo "the build has no CUDA (ROUTESOLVE_CUDA is OFF, or no nvcc was found): no device code for a kit"; exit 77; }
[ -d "$datasets" ] || { echo "no datasets at $datasets"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=$(KIT="$scratch/gpu-kit" BUILD_DIR="$build" DATASETS="$datasets" "$src/scripts/gpu-kit" --check 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && grep -q "a device answered" <<<"$out"; then
  echo "a CUDA device answered: the device run itself is gpu-kit/run"
  exit 77
fi
[ "$rc" -eq 3 ] || fail "expected exit 3 without a device, got $rc: $out"
grep -q "^no CUDA device: " <<<"$out" || fail "the run did not say 'no CUDA device': $out"
grep -q "^== preflight" <<<"$out" && ! grep -q "failed (" <<<"$out" || fail "the preflight did not pass: $out"
size=$(sed -n 's/^gpu-kit: .* is \([0-9]*\) MiB (\([0-9]*\) bytes).*/\2/p' <<<"$out")
[ -n "$size" ] && [ "$size" -le $((60 * 1048576)) ] || fail "kit size '$size' bytes (limit 60 MiB): $out"
grep -q "^GPU_KIT_RUNTIME=kit: they start through the kit's runtime" <<<"$out" ||
  fail "the check through the kit's own runtime did not run: $out"
for f in run summary.py device-skips suites/migration/migration manifest.json datasets.txt tests.txt bin/routesolve \
  runtime/ld-linux-x86-64.so.2 runtime/libc.so.6 runtime/libstdc++.so.6; do
  [ -e "$scratch/gpu-kit/$f" ] || fail "the kit lacks $f"
done
for t in $(cat "$scratch/gpu-kit/tests.txt") bench_matrix_backends bench_insertion; do
  [ -x "$scratch/gpu-kit/bin/$t" ] || fail "the kit lacks bin/$t"
done
# The preflight stops a kit that lost a dataset or a library, naming it, before asking for a device.
rm "$scratch/gpu-kit/datasets/cvrp/x/X-n979-k58.vrp" "$scratch/gpu-kit/lib/libfmt.so.9"
bad=$(OUT="$scratch/out" "$scratch/gpu-kit/run" --check 2>&1)
rc=$?
[ "$rc" -eq 1 ] || fail "a broken kit: expected exit 1, got $rc: $bad"
grep -q "dataset missing from the kit: cvrp/x/X-n979-k58.vrp" <<<"$bad" || fail "the missing dataset is not named: $bad"
# Not found on the device machine; here the system's copy is found, outside the kit.
grep -q "libfmt.so.9 => not found\|a library from outside the kit: libfmt.so.9" <<<"$bad" ||
  fail "the missing library is not named: $bad"
! grep -q "no CUDA device" <<<"$bad" || fail "a broken kit asked for a device: $bad"
[ -f "$scratch/out/summary.json" ] && [ -f "$scratch/out/results.tar.gz" ] || fail "no summary of the failed preflight"
echo "ok: $(grep '^gpu-kit: .* MiB' <<<"$out")"
