#!/usr/bin/env bash
# scripts/check-house-rules on a scratch git repository: a clean change passes; a 601-line file,
# an unlisted environment variable, a listed one read from another file, a read it cannot
# resolve and a mis-formatted changed line each fail with a message naming the file; drift in
# lines the change did not touch passes, in a moved file too. Exit 77 (skipped) when
# clang-format is missing, after the other cases passed.
# Usage: check_house_rules_test.sh REPO
set -euo pipefail
repo=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

git_() { git -C "$work" -c user.name=test -c user.email=test@example.invalid "$@"; }
mkdir -p "$work/scripts" "$work/docs" "$work/src"
cp "$repo/scripts/check-house-rules" "$work/scripts/"
cp "$repo/.clang-format" "$work/"
cat > "$work/docs/ENVIRONMENT.md" <<'LIST'
| variable | read in | meaning |
|---|---|---|
| `LISTED_VAR` | `src/reader.cpp` | read by the reader |
| `LOOP_A` | `src/reader.cpp` | read through a loop over names |
| `LOOP_B` | `src/reader.cpp` | read through a loop over names |
LIST
cat > "$work/src/reader.cpp" <<'CPP'
#include <cstdlib>

// A comment that mentions getenv(SOMETHING) is no read.
const char* listed() { return std::getenv("LISTED_VAR"); }

bool any() {
  for (const char* name : {"LOOP_A", "LOOP_B"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}
CPP
# Drift the change below does not touch: only changed lines are checked.
printf 'int  old_drift( ){return 0;}\n' > "$work/src/old.cpp"
git_ init -q -b main
git_ add -A
git_ commit -qm base
git_ checkout -q -b change

run() {  # run EXPECTED_RC NAME_IN_OUTPUT DESCRIPTION
  local expected=$1 needle=$2 what=$3 rc=0 out
  out=$(python3 "$work/scripts/check-house-rules" "$work" 2>&1) || rc=$?
  if [ "$rc" -ne "$expected" ] || ! grep -qF -- "$needle" <<<"$out"; then
    echo "FAIL: $what: exit $rc (expected $expected), output without \"$needle\":"
    echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok: $what"
  fi
  git_ reset -q --hard
  git_ clean -qfd
}

have_format=1
command -v clang-format >/dev/null 2>&1 || command -v clang-format-14 >/dev/null 2>&1 || have_format=0

# A clean, formatted change passes (and the old drift is not reported).
printf 'int formatted() { return 1; }\n' > "$work/src/new.cpp"
git_ add -A
git_ commit -qm clean
run 0 "0 problem(s)" "a clean change passes"
git_ reset -q --hard main

# 601 lines.
for i in $(seq 1 601); do echo "int v$i = $i;"; done > "$work/src/long.cpp"
run 1 "src/long.cpp: 601 lines, over the 600" "a 601-line file fails"

# Exactly 600 lines pass the size rule.
for i in $(seq 1 600); do echo "int v$i = $i;"; done > "$work/src/long.cpp"
run 0 "0 problem(s)" "a 600-line file passes"

# An unlisted variable, with std::, :: and secure_ spellings.
printf '#include <cstdlib>\nconst char* a() { return std::getenv("UNLISTED_VAR"); }\n' > "$work/src/env.cpp"
run 1 "src/env.cpp:2: reads the environment variable UNLISTED_VAR" "an unlisted getenv fails"
printf '#include <cstdlib>\nconst char* a() { return ::secure_getenv("OTHER_VAR"); }\n' > "$work/src/env.cpp"
run 1 "src/env.cpp:2: reads the environment variable OTHER_VAR" "an unlisted secure_getenv fails"

# A listed variable from a file not named for it.
printf '#include <cstdlib>\nconst char* a() { return std::getenv("LISTED_VAR"); }\n' > "$work/src/elsewhere.cpp"
run 1 "src/elsewhere.cpp:2: reads the environment variable LISTED_VAR, which docs/ENVIRONMENT.md lists for src/reader.cpp only" \
  "a listed variable read from another file fails"

# A read through a constant resolves; one through an expression does not.
printf '#include <cstdlib>\nconstexpr const char* kName = "HIDDEN_VAR";\nconst char* a() { return std::getenv(kName); }\n' \
  > "$work/src/const.cpp"
run 1 "src/const.cpp:3: reads the environment variable HIDDEN_VAR" "a read through a constant is resolved"
printf '#include <cstdlib>\n#include <string>\nconst char* a(const std::string& s) { return std::getenv(s.c_str()); }\n' \
  > "$work/src/expr.cpp"
run 1 "src/expr.cpp:3: getenv(s.c_str()): cannot tell which variable it reads" "an unresolvable read fails"

# A helper whose calls pass literals.
printf '#include <cstdlib>\nconst char* get(const char* name) { return std::getenv(name); }\nconst char* b() { return get("VIA_HELPER"); }\n' \
  > "$work/src/helper.cpp"
run 1 "src/helper.cpp:2: reads the environment variable VIA_HELPER" "a read through a helper is resolved"

if [ "$have_format" = 1 ]; then
  # A mis-formatted line in a changed file, committed or only in the working tree, or a new file.
  printf 'int formatted() { return 1; }\nint  badly( ){return 2;}\n' > "$work/src/new.cpp"
  git_ add -A
  git_ commit -qm drift
  run 1 "src/new.cpp: not clang-formatted at line(s) 2" "a mis-formatted committed change fails"
  git_ reset -q --hard main
  printf 'int  old_drift( ){return 0;}\nint  added( ){return 1;}\n' > "$work/src/old.cpp"
  run 1 "src/old.cpp: not clang-formatted at line(s) 2" "a mis-formatted working-tree change fails on its line only"
  printf 'int  fresh( ){return 1;}\n' > "$work/src/untracked.cpp"
  run 1 "src/untracked.cpp: not clang-formatted at line(s) 1" "a mis-formatted new file fails"
  # A file moved with its old drift counts only the lines that changed in it.
  mkdir -p "$work/moved"
  git_ mv src/old.cpp moved/old.cpp
  git_ commit -qm move
  run 0 "0 problem(s)" "a moved file with old drift passes"
  git_ reset -q --hard main
  # --all sees the old drift too.
  out=$(python3 "$work/scripts/check-house-rules" --all "$work" 2>&1) && rc=0 || rc=$?
  if [ "$rc" -eq 1 ] && grep -qF "src/old.cpp: not clang-formatted at line(s) 1" <<<"$out"; then echo "ok: --all checks every line"
  else echo "FAIL: --all: exit $rc: $out"; failures=$((failures + 1)); fi
fi

if [ "$failures" -ne 0 ]; then
  echo "check_house_rules_test: $failures case(s) failed"
  exit 1
fi
if [ "$have_format" = 0 ]; then
  echo "check_house_rules_test: format cases skipped: clang-format is not installed"
  exit 77
fi
echo "check_house_rules_test: all cases passed"
