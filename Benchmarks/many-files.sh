#!/usr/bin/env bash
# Many tiny files (issue 54, item 14): `tessera run Pipelines/app-thinning.yml` on a generated
# catalog of COUNT image sets, each one 12×12 @3x PNG master (every second set tagged, ten tags), for
# each COUNT given (default 20000 100000), with the default --memory-limit (1 GiB) and no cache.
# Prints wall time, CPU time, peak RSS, the manifest's size and the build's exit status; the peak
# RSS is what should stay within the memory limit. The outputs are kept under the work folder
# (out-COUNT/) for before/after comparisons (`sha256sum out-COUNT/manifest.json out-COUNT/bundles/*/*`).
#
#   Benchmarks/many-files.sh [COUNT...]
#   BENCH_DIR=/dev/shm/tessera-many Benchmarks/many-files.sh 20000     (work on tmpfs: 100,000 sets
#       are 300,000 small files to create on a shared disk)
#   TESSERA_BINARY=path/to/tessera Benchmarks/many-files.sh 100000     (another build, for before/after)
set -euo pipefail
cd "$(dirname "$0")/.."
COUNTS=("$@")
[ ${#COUNTS[@]} -gt 0 ] || COUNTS=(20000 100000)
. Benchmarks/lib/prepare.sh
B="${BENCH_DIR:-$WORK/many-files}"
mkdir -p "$B"
B="$(cd "$B" && pwd)"
LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)
for count in "${COUNTS[@]}"; do
    python3 Benchmarks/lib/make_tiny_catalog.py "$B/input-$count/Many.xcassets" "$count"
    rm -rf "$B/out-$count"
    status=0
    /usr/bin/time -v -o "$B/run-$count.time" "$TESSERA" run Pipelines/app-thinning.yml --input "$B/input-$count" \
        --output "$B/out-$count" --no-cache --progress quiet > "$B/run-$count.log" 2>&1 || status=$?
    echo "$status" > "$B/run-$count.status"
done
python3 - "$B" "$LOAD_BEFORE" "${COUNTS[@]}" <<'PY'
import os, re, sys
folder, load_before, counts = sys.argv[1], sys.argv[2], sys.argv[3:]
print(f"\nmany tiny files: tessera run Pipelines/app-thinning.yml --no-cache, default --memory-limit (1 GiB)")
print(f"{'sets':>8} {'wall s':>8} {'CPU s':>8} {'peak RSS MiB':>13} {'manifest MiB':>13} {'exit':>5}")
for count in counts:
    timing = open(f"{folder}/run-{count}.time").read()
    def field(name):
        return re.search(re.escape(name) + r": (.*)", timing).group(1).strip()
    clock = field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")
    wall = sum(float(part) * 60 ** index for index, part in enumerate(reversed(clock)))
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    rss = int(field("Maximum resident set size (kbytes)")) / 1024
    manifest = f"{folder}/out-{count}/manifest.json"
    size = f"{os.path.getsize(manifest) / 2**20:.1f}" if os.path.exists(manifest) else "none"
    status = open(f"{folder}/run-{count}.status").read().strip()
    print(f"{int(count):>8} {wall:>8.1f} {cpu:>8.1f} {rss:>13.0f} {size:>13} {status:>5}")
load_after = open("/proc/loadavg").read().split()[0]
print(f"\nload average {load_before} before, {load_after} after (2 cores shared: compare on a quiet machine)")
PY
