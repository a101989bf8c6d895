#!/usr/bin/env bash
# scripts/gpu-check where no GPU is: the syntax is valid, --list stays within the ~8 minute
# budget, and a run exits 3 with its reason and builds nothing (skipped, 77, on a GPU machine).
set -u
script=$1
bash -n "$script" || { echo "syntax error in $script"; exit 1; }
list=$("$script" --list) || { echo "--list failed"; exit 1; }
total=$(sed -n 's/^at most \([0-9]*\)s in all.*/\1/p' <<<"$list")
[ -n "$total" ] && [ "$total" -le 490 ] || { echo "step limits add up to '${total}' s (budget ~480 s)"; exit 1; }
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  echo "a GPU is present: not running the whole check from a test"
  exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
err=$(OUT="$out/results" BUILD_DIR="$out/build" "$script" 2>&1 >/dev/null)
rc=$?
[ "$rc" -eq 3 ] || { echo "expected exit 3 without a GPU, got $rc: $err"; exit 1; }
grep -q "no NVIDIA GPU here\|no usable NVIDIA GPU here" <<<"$err" || { echo "unclear message: $err"; exit 1; }
[ ! -e "$out/results" ] && [ ! -e "$out/build" ] || { echo "it built or wrote something without a GPU"; exit 1; }
echo "ok: $err"
