#!/usr/bin/env bash
# Remote-cache benchmark (issue 28): what a Bazel HTTP remote cache costs the build that fills it,
# and what it saves a second checkout at another absolute path, against a `--no-cache` build of
# the same input, in one go. The cache server is nginx-light with WebDAV on a free loopback port.
#
# For each input (the COUNT generated @3x masters, then every FOLDER given: a real app's
# `.xcassets` or asset folder), RUNS times (default 3), one after another:
#   no-cache   tessera run Pipelines/app-thinning.yml --no-cache, in checkout A
#   fill       the same with an empty local cache and an empty server: --cache + --remote-cache
#   clone      checkout B (a copy at another absolute path, its own .git), empty local cache,
#              the server as the fill left it
# Each checkout is a git repository (the plan record is keyed relative to it). Every output folder
# must match the no-cache build's byte for byte (report.json aside: it holds timings). Prints
# fill ÷ no-cache (target ≤ 1.3) and no-cache ÷ clone (target ≥ 5) as medians with their spread,
# and the requests and bytes the fill sent (from nginx's access log).
#
#   Benchmarks/remote-cache.sh [COUNT] [FOLDER...]
#   RUNS=1 Benchmarks/remote-cache.sh 600 ~/src/IceCubesApp/IceCubesApp/Resources/Assets.xcassets
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${1:-600}"; shift || true
. Benchmarks/lib/prepare.sh
RUNS="${RUNS:-3}"
B="${BENCH_DIR:-$(pwd)/$WORK/remote-cache}"
rm -rf "$B"; mkdir -p "$B"
TESSERA_ABS="$(realpath "$TESSERA")"
LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)

python3 Benchmarks/lib/make_assets.py "$B/inputs/generated" "$COUNT"
INPUTS=("generated:$B/inputs/generated")
for folder in "$@"; do INPUTS+=("$(basename "$folder"):$(cd "$folder" && pwd)"); done

NGINX="$B/nginx"
. Benchmarks/lib/webdav-cache.sh

# A checkout: the input under `assets/` and the pipeline, in a git repository of its own.
make_checkout() {  # FOLDER SOURCE
    rm -rf "$1"; mkdir -p "$1"
    cp -r "$2" "$1/assets"; cp -r Pipelines "$1/"
    find "$1/assets" -type f -exec touch -d '1 minute ago' {} +
    git init -q "$1"
}
timed() {  # NAME CHECKOUT ARGS…: tessera run inside the checkout, recording "wall user sys"
    local name="$1" checkout="$2"; shift 2
    ( cd "$checkout" && /usr/bin/time -f "%e %U %S" -o "$B/$name.time" "$TESSERA_ABS" run Pipelines/app-thinning.yml \
        -i assets -o out "$@" --progress plain > "$B/$name.log" 2>&1 ) || { tail -5 "$B/$name.log"; exit 1; }
}
same_outputs() {  # A B: every output but report.json byte-identical
    diff -r -q -x report.json -x size-report.html "$1" "$2" > /dev/null \
        || { echo "outputs differ: $1 $2" >&2; diff -r -q -x report.json "$1" "$2" | head -5 >&2; exit 1; }
}

for input in "${INPUTS[@]}"; do
    name="${input%%:*}"; source="${input#*:}"
    A="$B/$name/checkout-a"; C="$B/$name/elsewhere/deeper/checkout-b"
    make_checkout "$A" "$source"; make_checkout "$C" "$source"
    for r in $(seq "$RUNS"); do
        rm -rf "$A/out"
        timed "$name-nocache$r" "$A" --no-cache
        mv "$A/out" "$A/out-nocache"
        rm -rf "$NGINX/store/cache" "$A/local-cache"
        : > "$NGINX/access.log"
        timed "$name-fill$r" "$A" --cache local-cache --remote-cache "$REMOTE"
        cp "$NGINX/access.log" "$B/$name-fill$r.access"
        same_outputs "$A/out-nocache" "$A/out"
        rm -rf "$C/out" "$C/local-cache"
        timed "$name-clone$r" "$C" --cache local-cache --remote-cache "$REMOTE"
        same_outputs "$A/out-nocache" "$C/out"
        grep -q "remote cache:" "$B/$name-fill$r.log" "$B/$name-clone$r.log" \
            && { echo "a run warned about the remote cache:" >&2; grep -h "remote cache:" "$B/$name-"*"$r.log" >&2; exit 1; }
        rm -rf "$A/out-nocache"
    done
done
kill $NGINX_PID; wait $NGINX_PID 2>/dev/null || true; trap - EXIT

python3 - "$B" "$RUNS" "$LOAD_BEFORE" "${INPUTS[@]}" <<'PY'
import collections, os, statistics, sys
b, runs, load_before, inputs = sys.argv[1], int(sys.argv[2]), sys.argv[3], [i.split(":")[0] for i in sys.argv[4:]]
def t(name):
    wall, user, system = map(float, open(f"{b}/{name}.time").read().split()[-3:])
    return wall, user + system
def spread(values, fmt):
    return "" if len(values) == 1 else f" ({fmt.format(min(values))}–{fmt.format(max(values))})"
print(f"\nRemote cache (nginx WebDAV on loopback), Pipelines/app-thinning.yml, release build; load average"
      f" {load_before} before, {os.getloadavg()[0]:.2f} after; {runs} run(s) of each, medians (spread)\n")
print("| input | files | no-cache s | fill s | clone s | fill ÷ no-cache (≤ 1.3) | no-cache ÷ clone (≥ 5) | fill requests | fill MB sent |")
print("|---|---:|---:|---:|---:|---|---|---|---:|")
for name in inputs:
    nocache = [t(f"{name}-nocache{r}")[0] for r in range(1, runs + 1)]
    fill = [t(f"{name}-fill{r}")[0] for r in range(1, runs + 1)]
    clone = [t(f"{name}-clone{r}")[0] for r in range(1, runs + 1)]
    fill_ratio = [f / n for f, n in zip(fill, nocache)]
    clone_ratio = [n / c for n, c in zip(nocache, clone)]
    methods, sent = collections.Counter(), 0
    for line in open(f"{b}/{name}-fill1.access"):
        method, status, request_length, _ = line.split()
        methods[method] += 1
        sent += int(request_length)
    files = sum(len(f) for _, _, f in os.walk(f"{b}/{name}/checkout-a/assets"))
    requests = ", ".join(f"{m} {n}" for m, n in sorted(methods.items()))
    print(f"| {name} | {files} | {statistics.median(nocache):.2f} | {statistics.median(fill):.2f} | {statistics.median(clone):.2f} "
          f"| **{statistics.median(fill_ratio):.2f}**{spread(fill_ratio, '{:.2f}')} "
          f"| **{statistics.median(clone_ratio):.1f}×**{spread(clone_ratio, '{:.1f}')} | {requests} | {sent / 1e6:.1f} |")
PY
