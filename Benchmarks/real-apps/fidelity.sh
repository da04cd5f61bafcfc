#!/usr/bin/env bash
# Issue 37's real-app fidelity runs: what a default-build Tessera ships per device against what
# Xcode / the App Store / Google Play ship (counted by fidelity_check.py).
#
#   Benchmarks/real-apps/fidelity.sh before|after [APP...]   run every app (or the named ones) with that
#                                                            binary, write $RUNS/<which>/<app>-<run>.json
#   Benchmarks/real-apps/fidelity.sh recheck before|after    re-count the existing outputs only
#   Benchmarks/real-apps/fidelity.sh table                   $RUNS/TABLE.md from before/ and after/
#
# Binaries: $BEFORE_BIN (default /work/before/.build/release/tessera, the worktree of f8f3bfe) and
# $AFTER_BIN (default /work/after/.build/release/tessera), each `swift build -c release --product tessera`
# with no --traits. Inputs: $REALAPPS/<app>/... (default /work/realapps, see its APPS.md); each app is run
# with --input the .xcassets (or res/) itself, its parent folder, and for apps with several targets the
# repository root (runs listed by `fidelity_check.py runs`). Pipelines are written per run beside the
# output ($RUNS/<which>/<app>-<run>/pipeline.yml). Each run: --no-cache, `timeout $TIMEOUT` (600 s),
# under /usr/bin/time -v. Nothing outside $RUNS is written.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
export REALAPPS=${REALAPPS:-/work/realapps}
RUNS=${RUNS:-$REALAPPS/runs}
BEFORE_BIN=${BEFORE_BIN:-/work/before/.build/release/tessera}
AFTER_BIN=${AFTER_BIN:-/work/after/.build/release/tessera}
TIMEOUT=${TIMEOUT:-600}
CHECK="python3 $HERE/fidelity_check.py"

run() {
  local which=$1; shift
  local bin; [ "$which" = after ] && bin=$AFTER_BIN || bin=$BEFORE_BIN
  [ -x "$bin" ] || { echo "no binary at $bin" >&2; exit 2; }
  mkdir -p "$RUNS/$which"
  "$bin" version > "$RUNS/$which/VERSION.txt" 2>&1
  git -C "$(dirname "$bin")/../.." log -1 --format=%H > "$RUNS/$which/COMMIT" 2>/dev/null
  $CHECK runs "$@" | while IFS=$'\t' read -r app r kind input; do
    local dir=$RUNS/$which/$app-$r
    rm -rf "$dir"; mkdir -p "$dir"
    $CHECK pipeline "$app" "$r" "$which" > "$dir/pipeline.yml"
    echo "== $app $r ($which): $bin run $dir/pipeline.yml --input $input --output $dir/out --no-cache"
    /usr/bin/time -v -o "$dir/time.txt" timeout "$TIMEOUT" "$bin" run "$dir/pipeline.yml" --input "$input" \
      --output "$dir/out" --no-cache --progress plain > "$dir/log.txt" 2>&1 < /dev/null
    echo "   rc=$? $(grep -E 'Elapsed|Maximum resident' "$dir/time.txt" | tr -s ' ' | tr '\n' ' ')"
    $CHECK check "$app" "$r" "$dir/out" "$dir/log.txt" "$dir/time.txt" > "$RUNS/$which/$app-$r.json" \
      || echo "   check failed for $app $r" >&2
    python3 - "$RUNS/$which/$app-$r.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
print("   sets", r.get("sets_in"), "out", r.get("assets_out"), "dropped", len(r.get("dropped", [])),
      "classes", {k: v for k, v in r.get("classes", {}).items() if v})
EOF
  done
}

recheck() { # re-count existing outputs (after editing fidelity_check.py) without running tessera again
  local which=$1; shift
  $CHECK runs "$@" | while IFS=$'\t' read -r app r kind input; do
    local dir=$RUNS/$which/$app-$r
    [ -d "$dir/out" ] || continue
    $CHECK check "$app" "$r" "$dir/out" "$dir/log.txt" "$dir/time.txt" > "$RUNS/$which/$app-$r.json"
  done
}

cmd=${1:-}; shift || true
case "$cmd" in
  before|after) run "$cmd" "$@" ;;
  recheck) recheck "$@" ;;
  table) { echo "# Issue 37 fidelity runs: before (f8f3bfe) → after ($(cat "$RUNS/after/COMMIT" 2>/dev/null || echo '?'))"; echo
           $CHECK table "$RUNS/before" "$RUNS/after"; } > "$RUNS/TABLE.md"; cat "$RUNS/TABLE.md" ;;
  *) sed -n '2,16p' "$0"; exit 64 ;;
esac
