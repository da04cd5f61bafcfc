#!/usr/bin/env bash
# Incremental-build benchmark (issue #11): COUNT generated @3x masters (default 1,000) through
# `tessera run Pipelines/app-thinning.yml`, in one go:
#   cold      a build with an empty local cache
#   no-op     the same build again (nothing changed)
#   changed   one master rewritten, rebuilt, against building that asset alone (no cache) plus
#             the bundle/compress/publish time of the changed run (repacking its bundles)
#   remote    a fresh clone (another checkout, empty local cache) with a warm Bazel HTTP remote
#             cache: nginx-light (WebDAV) on loopback, filled by a build in a first checkout
#   shards    4 shards one after another + merge (their own empty cache), total CPU against the
#             cold build's CPU
# Prints wall and CPU seconds and the ratios the issue sets as targets. Cold, no-op, changed (each
# time another version of the same master) and clone run RUNS times (default 3) and the table gives
# medians with the spread of the ratio: on a shared 2-core VM one run moves by up to 60%.
#
#   Benchmarks/incremental.sh [COUNT]
#   RUNS=1 Benchmarks/incremental.sh 200        (one run of each, quicker)
#   BENCH_DIR=/dev/shm/tessera-incremental Benchmarks/incremental.sh 1000   (work folder elsewhere,
#       e.g. tmpfs: a long-lived ext4 volume can spend most of a warm build creating inodes)
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${1:-1000}"
. Benchmarks/lib/prepare.sh
PIPELINE=Pipelines/app-thinning.yml
B="${BENCH_DIR:-$WORK/incremental}"
rm -rf "$B"
mkdir -p "$B"
B="$(cd "$B" && pwd)"
LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)
INPUT="$B/input"
python3 Benchmarks/lib/make_assets.py "$INPUT" "$COUNT"
find "$INPUT" -type f -exec touch -d '1 minute ago' {} +

measure() {  # NAME ARGS…: runs tessera, records "wall user sys"
    local name="$1"; shift
    /usr/bin/time -f "%e %U %S" -o "$B/$name.time" "$TESSERA" "$@" --progress plain > "$B/$name.log" 2>&1 \
        || { tail -5 "$B/$name.log"; exit 1; }
}

RUNS="${RUNS:-3}"
for r in $(seq "$RUNS"); do
    rm -rf "$B/out" "$B/cache"
    measure "cold$r" run "$PIPELINE" -i "$INPUT" -o "$B/out" --cache "$B/cache"
done
for r in $(seq "$RUNS"); do
    measure "noop$r" run "$PIPELINE" -i "$INPUT" -o "$B/out" --cache "$B/cache"
done

CHANGED=$(( COUNT / 2 ))
for r in $(seq "$RUNS"); do
    python3 Benchmarks/lib/make_assets.py "$INPUT" "$COUNT" "$CHANGED" $(( 6 + r ))
    CHANGED_FILE=$(find "$INPUT" -name "asset$(printf %04d $CHANGED)@3x.*")
    touch -d '1 minute ago' "$CHANGED_FILE"
    measure "changed$r" run "$PIPELINE" -i "$INPUT" -o "$B/out" --cache "$B/cache"
    cp "$B/out/report.json" "$B/changed$r.report.json"
    rm -rf "$B/alone-input" "$B/alone-out"
    mkdir -p "$B/alone-input/$(basename "$(dirname "$CHANGED_FILE")")"
    cp "$CHANGED_FILE" "$B/alone-input/$(basename "$(dirname "$CHANGED_FILE")")/"
    measure "alone$r" run "$PIPELINE" -i "$B/alone-input" -o "$B/alone-out" --no-cache
done

NGINX="$B/nginx"
. Benchmarks/lib/webdav-cache.sh
# Two checkouts of the same repository (relative paths, as on CI runners): one fills the remote
# cache, the other is the fresh clone with an empty local cache.
for checkout in fill clone; do
    mkdir -p "$B/$checkout"; cp -r "$INPUT" "$B/$checkout/input"; cp -r Pipelines "$B/$checkout/"
    find "$B/$checkout/input" -type f -exec touch -d '1 minute ago' {} +
done
TESSERA_ABS="$(realpath "$TESSERA")"
in_checkout() {  # NAME CHECKOUT: tessera run inside the checkout, timed like measure
    local name="$1" checkout="$2"
    ( cd "$B/$checkout" && /usr/bin/time -f "%e %U %S" -o "../$name.time" "$TESSERA_ABS" run "$PIPELINE" -i input -o out \
        --cache local-cache --remote-cache "$REMOTE" --progress plain > "../$name.log" 2>&1 ) \
        || { tail -5 "$B/$name.log"; exit 1; }
}
in_checkout fill fill
for r in $(seq "$RUNS"); do
    rm -rf "$B/clone/local-cache" "$B/clone/out"
    in_checkout "remote$r" clone
    cmp "$B/fill/out/manifest.json" "$B/clone/out/manifest.json" || { echo "the clone's manifest differs" >&2; exit 1; }
done
kill $NGINX_PID; wait $NGINX_PID 2>/dev/null || true; trap - EXIT

for i in 1 2 3 4; do
    measure "shard$i" run "$PIPELINE" -i "$INPUT" -o "$B/shard$i" --cache "$B/shard-cache" --shard "$i/4"
done
measure merge merge "$B"/shard{1,2,3,4}/shard-*-of-4.json -o "$B/merged" --cache "$B/shard-cache"
# The merged build and the single one (same input, changed master included) hold the same bytes.
cmp "$B/merged/manifest.json" "$B/out/manifest.json" && diff -r "$B/merged/bundles" "$B/out/bundles" \
    || { echo "the merged shards differ from the single build" >&2; exit 1; }

python3 - "$B" "$COUNT" "$RUNS" "$LOAD_BEFORE" "$(cut -d' ' -f1 /proc/loadavg)" "$(df -T "$B" | awk 'NR==2 {print $2}')" <<'PY'
import json, statistics, sys
b, count, runs, load_before, load_after, fs = sys.argv[1:7]
runs = int(runs)
def t(name):
    wall, user, system = map(float, open(f"{b}/{name}.time").read().split()[-3:])
    return wall, user + system
def series(name):
    return [t(f"{name}{r}") for r in range(1, runs + 1)]
def median(pairs):
    return statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)
def spread(values, fmt):
    return "" if runs == 1 else f" ({fmt.format(min(values))}–{fmt.format(max(values))})"
cold, noop, changed, alone, remote = (series(n) for n in ("cold", "noop", "changed", "alone", "remote"))
cold_wall, cold_cpu = median(cold)
def repack(r):
    stages = json.load(open(f"{b}/changed{r}.report.json")).get("stages", {})
    return sum(stages.get(s, {}).get("wallSeconds", 0) for s in ("compress", "bundle", "publish"))
repacks = [repack(r) for r in range(1, runs + 1)]
noop_ratios = [w / cold_wall for w, _ in noop]
changed_ratios = [changed[i][0] / (alone[i][0] + repacks[i]) for i in range(runs)]
remote_ratios = [cold_wall / w for w, _ in remote]
shard_cpu = sum(t(n)[1] for n in ("shard1", "shard2", "shard3", "shard4", "merge"))
shard_wall = sum(t(n)[0] for n in ("shard1", "shard2", "shard3", "shard4", "merge"))
rows = [
    ("cold build (empty cache)", median(cold), "", ""),
    ("no-op rebuild", median(noop), f"{statistics.median(noop_ratios):.3f} of cold" + spread(noop_ratios, "{:.3f}"),
     "≤ 0.5 s and ≤ 0.05"),
    ("one changed master", median(changed),
     f"{statistics.median(changed_ratios):.2f} × (alone {statistics.median(w for w, _ in alone):.2f} s + repack "
     f"{statistics.median(repacks):.2f} s)" + spread(changed_ratios, "{:.2f}"), "≤ 2"),
    ("fresh clone, warm remote cache", median(remote),
     f"{statistics.median(remote_ratios):.1f}× faster than cold" + spread(remote_ratios, "{:.1f}"), "≥ 10×"),
    ("4 shards + merge (CPU)", (shard_wall, shard_cpu), f"{shard_cpu / cold_cpu:.2f} × cold CPU", "≤ 1.2"),
]
print(f"\nIncremental builds: {count} generated @3x masters, Pipelines/app-thinning.yml, release build,"
      f" work folder on {fs}, load average {load_before} before, {load_after} after;"
      f" {'medians of ' + str(runs) + ' runs (ratio spread in brackets)' if runs > 1 else 'one run each'}\n")
print(f"| case | wall s | CPU s | ratio | target |")
print(f"|---|---:|---:|---|---|")
for name, (wall, cpu), ratio, target in rows:
    print(f"| {name} | {wall:.2f} | {cpu:.2f} | {ratio} | {target} |")
PY
