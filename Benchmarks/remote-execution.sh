#!/usr/bin/env bash
# Remote execution benchmark (issue #43): what an REAPI action costs, what remote execution on
# buildbox-casd gives a COUNT-master build against a local one, and the gRPC remote cache against
# the Bazel HTTP one, in one go. Everything on loopback; the servers are started here and stopped
# by their pids at exit.
#
#   1. per-action overhead: UNITS (default 128) of the generated masters (the first UNITS of the
#      COUNT) built remotely with --remote-batch 1, 4, 8, 16, 32, 64 on casd with two executors
#      (casd --jobs=2, the client --jobs 2), each on a fresh casd that a one-master warm-up build
#      has given the worker binary (so every row uploads the same masters and no worker), into a
#      fresh local cache; then the same again on that casd with another fresh local cache, which
#      the executor's action cache answers: the client's own share (planning, Execute round trips,
#      result adoption, restore, packing). Against `--jobs 2 --no-cache` of the same units.
#      From these it fits  cold(B) − client(UNITS) ≈ waves(B) × (F + B·W),  waves = ⌈⌈UNITS/B⌉/2⌉:
#      F the fixed cost of one action, W the work of one unit in a worker.
#   2. the COUNT-master build (Benchmarks/lib/make_assets.py, Pipelines/app-thinning.yml):
#      local `--jobs 2 --no-cache` against remote execution on a fresh casd (two executors, empty:
#      the worker binary is uploaded in the timed run) into a fresh local cache, --jobs 2, the
#      default batch; then a fresh local cache against the same casd (its action cache warm).
#   3. remote caches: a cold build (empty server, fresh local cache) and a warm one (the server as
#      the cold build left it; a second checkout at another path with an empty local cache), on
#      nginx WebDAV (Bazel HTTP; requests from its access log) and on buildbox-casd without
#      execution (gRPC; RPCs counted from casd's log, which at --log-level=info has one line for each
#      RPC it serves: "[INFO] FindMissingBlobs request from [peer=…]").
# ROUNDS (default 3) of each; medians. Every output folder must match `--no-cache`'s byte for
# byte (report.json aside). The model at the end takes F, W and the client's share to P workers.
#
# The worker is the client's binary, a release build with --static-swift-stdlib: casd's sandbox
# binds the host's /usr (/usr/lib as /lib, /usr/lib64 as /lib64, /usr/bin as /bin) read-only, so
# its Debian libraries (libpng, libjpeg, …) are found. WORKER=path/to/static/tessera runs another.
#
# BENCH_DIR=/dev/shm/… puts the work (checkouts, caches, casd's CAS and sandboxes) on tmpfs: on a
# disk other builds write to, every build's flush (the client's and each worker's) waits on the disk
# they share (until issue 56 a syncfs, which also wrote their writes back).
#
#   Benchmarks/remote-execution.sh [COUNT]                 (600)
#   BENCH_DIR=/dev/shm/remote-execution Benchmarks/remote-execution.sh 600
#   ROUNDS=1 UNITS=64 Benchmarks/remote-execution.sh 200
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${1:-600}"
ROUNDS="${ROUNDS:-3}"
UNITS="${UNITS:-128}"
BATCHES="${BATCHES:-1 4 8 16 32 64}"
STARTED=$(date +%s)
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)

WORK=Benchmarks/.work
mkdir -p "$WORK"
Benchmarks/lib/ensure-peers.sh
scripts/ensure-reapi-servers.sh
if [ -n "${TESSERA_BINARY:-}" ]; then
    TESSERA=$TESSERA_BINARY
else
    nice -n 10 swift build -c release --product tessera --traits CommandLineTool,FastInflate --static-swift-stdlib >&2
    TESSERA=.build/release/tessera
fi
T="$(realpath "$TESSERA")"
WORKER="$(realpath "${WORKER:-$TESSERA}")"
SERVERS="${TESSERA_TEST_SERVERS:-$HOME/.cache/tessera-test-servers}/buildbox"
B="${BENCH_DIR:-$(pwd)/$WORK/remote-execution}"
rm -rf "$B"; mkdir -p "$B/times" "$B/logs"

# The inputs: COUNT masters, the first UNITS of them (the same images), and one other master for
# the warm-up builds; one git checkout holding all three and the pipelines.
CO="$B/checkout"
mkdir -p "$CO"
python3 Benchmarks/lib/make_assets.py "$CO/input" "$COUNT"
python3 Benchmarks/lib/make_assets.py "$CO/units" "$UNITS"
python3 Benchmarks/lib/make_assets.py "$CO/warmup" 1 9999 5
cp -r Pipelines "$CO/"
( cd "$CO" && git init -q && git add -A && git -c user.email=b@b -c user.name=b commit -qm input )
find "$CO" -path "$CO/.git" -prune -o -type f -exec touch -d '1 minute ago' {} +
CO2="$B/elsewhere/deeper/checkout"
mkdir -p "$(dirname "$CO2")"; cp -a "$CO" "$CO2"

NGINX="$B/nginx"
. Benchmarks/lib/webdav-cache.sh
CASD_PID=""
trap 'kill $NGINX_PID 2> /dev/null || true; [ -z "$CASD_PID" ] || kill $CASD_PID 2> /dev/null || true' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# start_casd NAME [exec|cache] [LOG-LEVEL]: a fresh buildbox-casd in $B/NAME; sets CASD_PID, CASD.
start_casd() {
    local folder="$B/$1" mode="${2:-exec}" level="${3:-info}" port
    rm -rf "$folder"; mkdir -p "$folder/cache"
    local options=("--log-level=$level")
    if [ "$mode" = exec ]; then
        options+=("--buildbox-run=$SERVERS/buildbox-run" "--jobs=2")
        local mounts=(/usr:/usr /usr/lib:/lib /usr/bin:/bin)
        [ -d /usr/lib64 ] && mounts+=(/usr/lib64:/lib64)
        for mount in "${mounts[@]}"; do options+=("--runner-arg=--ro-bind-mount=$mount"); done
    fi
    port=$(free_port)
    "$SERVERS/buildbox-casd" "--bind=127.0.0.1:$port" "${options[@]}" "$folder/cache" > "$folder/casd.log" 2>&1 &
    CASD_PID=$!
    for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { tail -5 "$folder/casd.log"; exit 1; }
    CASD="grpc://127.0.0.1:$port"
}
stop_casd() { kill "$CASD_PID"; wait "$CASD_PID" 2> /dev/null || true; CASD_PID=""; }

# timed NAME CHECKOUT INPUT OUTPUT ARGS…: tessera run in the checkout (relative paths, as on CI),
# appending "wall user sys" to times/NAME; the log (summary, remote line) in logs/NAME.
timed() {
    local name="$1" checkout="$2" input="$3" output="$4"; shift 4
    rm -rf "${checkout:?}/$output"
    sync
    ( cd "$checkout" && /usr/bin/time -f "%e %U %S" -o "$B/last.time" "$T" run Pipelines/app-thinning.yml \
        -i "$input" -o "$output" --progress quiet "$@" > "$B/logs/$name" 2>&1 ) || { tail -8 "$B/logs/$name"; exit 1; }
    if grep -q "warning: remote\|remote executor:\|remote cache:" "$B/logs/$name"; then
        echo "$name warned about the remote:" >&2; grep "remote" "$B/logs/$name" >&2; exit 1
    fi
    cat "$B/last.time" >> "$B/times/$name"
}
same_outputs() {  # A B: every output but report.json byte-identical
    diff -r -q -x report.json -x size-report.html "$1" "$2" > /dev/null \
        || { echo "outputs differ: $1 $2" >&2; diff -r -q -x report.json -x size-report.html "$1" "$2" | head -5 >&2; exit 1; }
}
remote_line() {  # NAME: the run's "remote:" summary, appended to times/NAME.remote
    grep "remote:" "$B/logs/$1" | sed 's/^ *remote: *//' >> "$B/times/$1.remote"
}
EXEC=(--jobs 2 --remote-worker "$WORKER")

for r in $(seq "$ROUNDS"); do
    echo "round $r of $ROUNDS" >&2
    # 1. Per-action overhead, on UNITS masters.
    timed units-local "$CO" units out-units-local --jobs 2 --no-cache
    for batch in $BATCHES; do
        start_casd casd-sweep
        rm -rf "$CO/lc-warmup"
        timed warmup "$CO" warmup out-warmup --cache lc-warmup --remote-executor "$CASD" "${EXEC[@]}"
        rm -rf "$CO/lc-cold"
        timed "units-b$batch-cold" "$CO" units out-units --cache lc-cold --remote-executor "$CASD" --remote-batch "$batch" "${EXEC[@]}"
        remote_line "units-b$batch-cold"
        same_outputs "$CO/out-units-local" "$CO/out-units"
        rm -rf "$CO/lc-warm"
        timed "units-b$batch-warm" "$CO" units out-units --cache lc-warm --remote-executor "$CASD" --remote-batch "$batch" "${EXEC[@]}"
        remote_line "units-b$batch-warm"
        same_outputs "$CO/out-units-local" "$CO/out-units"
        stop_casd
    done
    # 2. The COUNT-master build: local --jobs 2 against remote execution on an empty casd.
    timed full-local "$CO" input out-local --jobs 2 --no-cache
    start_casd casd-full
    rm -rf "$CO/lc-remote"
    timed full-remote "$CO" input out-remote --cache lc-remote --remote-executor "$CASD" "${EXEC[@]}"
    remote_line full-remote
    same_outputs "$CO/out-local" "$CO/out-remote"
    rm -rf "$CO/lc-remote"
    timed full-remote-warm "$CO" input out-remote --cache lc-remote --remote-executor "$CASD" "${EXEC[@]}"
    remote_line full-remote-warm
    same_outputs "$CO/out-local" "$CO/out-remote"
    stop_casd
    # 3. Remote caches: HTTP (nginx WebDAV) and gRPC (casd, no execution), cold and warm.
    rm -rf "$NGINX/store/cache" "$CO/lc-http" "$CO2/lc-http"
    : > "$NGINX/access.log"
    timed http-cold "$CO" input out-http --jobs 2 --cache lc-http --remote-cache "$REMOTE"
    cp "$NGINX/access.log" "$B/times/http-cold.access$r"; : > "$NGINX/access.log"
    same_outputs "$CO/out-local" "$CO/out-http"
    timed http-warm "$CO2" input out-http --jobs 2 --cache lc-http --remote-cache "$REMOTE"
    cp "$NGINX/access.log" "$B/times/http-warm.access$r"
    same_outputs "$CO/out-local" "$CO2/out-http"
    start_casd "casd-cache$r" cache info
    rm -rf "$CO/lc-grpc" "$CO2/lc-grpc"
    timed grpc-cold "$CO" input out-grpc --jobs 2 --cache lc-grpc --remote-cache "$CASD"
    cp "$B/casd-cache$r/casd.log" "$B/times/grpc-cold.log$r"
    same_outputs "$CO/out-local" "$CO/out-grpc"
    timed grpc-warm "$CO2" input out-grpc --jobs 2 --cache lc-grpc --remote-cache "$CASD"
    cp "$B/casd-cache$r/casd.log" "$B/times/grpc-warm.log$r"
    same_outputs "$CO/out-local" "$CO2/out-grpc"
    stop_casd
done
kill $NGINX_PID; wait $NGINX_PID 2> /dev/null || true

python3 - "$B" "$ROUNDS" "$COUNT" "$UNITS" "$BATCHES" "$LOAD_BEFORE" "$STARTED" "$T" "$WORKER" <<'PY'
import collections, math, os, re, statistics, sys, time
b, rounds, count, units, batches, load_before, started, client, worker = sys.argv[1:]
rounds, count, units, started = int(rounds), int(count), int(units), int(started)
batches = [int(x) for x in batches.split()]
times = f"{b}/times"

def walls(name):
    return [float(line.split()[0]) for line in open(f"{times}/{name}") if line.strip()]
def med(name):
    return statistics.median(walls(name))
def spread(values, fmt="{:.2f}"):
    return "" if len(values) == 1 else f" ({fmt.format(min(values))}–{fmt.format(max(values))})"
def remote(name):
    line = open(f"{times}/{name}.remote").read().splitlines()[0]
    m = re.match(r"(\d+) work units in (\d+) actions", line)
    return int(m.group(1)), int(m.group(2)), line

cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"\nRemote execution (REAPI) benchmark: {count} generated @3x masters, Pipelines/app-thinning.yml, release build")
print(f"machine: {os.cpu_count()} cores ({cpu}), shared; load average {load_before} before, "
      f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} after; {rounds} round(s), medians (spread)")
print(f"client: {client}; worker: {worker} (--static-swift-stdlib, dynamically linked against Debian's /usr:"
      f" casd's buildbox-run binds /usr, /usr/lib→/lib, /usr/lib64→/lib64, /usr/bin→/bin read-only)")
print("executor: buildbox-casd 1.4.25 on loopback, --jobs=2 (two executors), buildbox-run (bubblewrap), no FUSE (hardlink staging)")

# 1. per-action overhead
local_k = med("units-local")
local_full = med("full-local")
# W: one unit's work on one core, from two local --jobs 2 builds (UNITS and COUNT masters).
w_local = 2 * (local_full - local_k) / (count - units) if count > units else float("nan")
print(f"\n## 1. Per-action overhead: {units} units (masters), casd two executors, client --jobs 2\n")
print(f"local --jobs 2 --no-cache: {local_k:.2f} s{spread(walls('units-local'))} = {1000 * local_k / units:.1f} ms a unit "
      f"(work of one unit on one core, W_local = 2 × Δwall/Δunits of the {units}- and {count}-master local builds: {1000 * w_local:.1f} ms)\n")
print("| batch | actions | cold s | ms a unit | ÷ local | executor cache warm s (client's share) | (cold − warm) ms a unit |")
print("|---:|---:|---:|---:|---:|---:|---:|")
rows = []
for batch in batches:
    sent, actions, _ = remote(f"units-b{batch}-cold")
    cold, warm = med(f"units-b{batch}-cold"), med(f"units-b{batch}-warm")
    rows.append((batch, actions, cold, warm))
    print(f"| {batch} | {actions} | {cold:.2f}{spread(walls(f'units-b{batch}-cold'))} | {1000 * cold / units:.1f} | {cold / local_k:.2f} "
          f"| {warm:.2f}{spread(walls(f'units-b{batch}-warm'))} | {1000 * (cold - warm) / units:.1f} |")
client_k = statistics.median(r[3] for r in rows)
# Least squares without intercept: cold − client = waves·F + waves·B·W.
xs = [(math.ceil(a / 2), math.ceil(a / 2) * batch, cold - client_k) for batch, a, cold, _ in rows]
s11 = sum(x1 * x1 for x1, _, _ in xs); s12 = sum(x1 * x2 for x1, x2, _ in xs); s22 = sum(x2 * x2 for _, x2, _ in xs)
t1 = sum(x1 * y for x1, _, y in xs); t2 = sum(x2 * y for _, x2, y in xs)
det = s11 * s22 - s12 * s12
F = (t1 * s22 - t2 * s12) / det
W = (s11 * t2 - s12 * t1) / det
fitted = F > 0 and W > 0
if not fitted:  # noise (a loaded machine) can push a coefficient below zero: fall back to (a) and W_local
    print("\nthe fit gave a coefficient ≤ 0; the model uses (a) and W_local instead")
b1 = next(r for r in rows if r[0] == min(batches))
F_simple = 2 * (b1[2] - client_k) / b1[1] - min(batches) * w_local
print(f"\nthe client's share of a {units}-unit remote build (executor cache warm, median over batch sizes): {client_k:.2f} s")
print(f"(a) fixed cost of one action, from batch {b1[0]}: 2 executors × (cold − client) ÷ actions − W_local = "
      f"2 × ({b1[2]:.2f} − {client_k:.2f}) ÷ {b1[1]} − {1000 * w_local:.1f} ms = {1000 * F_simple:.0f} ms")
print(f"(b) fit over batch sizes, cold − client ≈ ⌈actions/2⌉ × (F + B·W): F = {1000 * F:.0f} ms an action, "
      f"W = {1000 * W:.1f} ms a unit in a worker")
for batch, a, cold, _ in rows:
    model = client_k + math.ceil(a / 2) * (F + batch * W)
    print(f"    batch {batch:>3}: measured {cold:.2f} s, fit {model:.2f} s")
if not fitted:
    F, W = F_simple, w_local

# 2. the COUNT-master build
full_remote, full_warm = med("full-remote"), med("full-remote-warm")
sent, actions, line = remote("full-remote")
ratios = [r / l for r, l in zip(walls("full-remote"), walls("full-local"))]
print(f"\n## 2. {count} masters: remote execution on casd (two executors, empty) against local --jobs 2\n")
print("| build | wall s | ÷ local |")
print("|---|---:|---:|")
print(f"| local --jobs 2 --no-cache | {local_full:.2f}{spread(walls('full-local'))} | 1 |")
print(f"| remote, empty casd, fresh local cache, the automatic batch (units ÷ --jobs, ≤ 64) | {full_remote:.2f}{spread(walls('full-remote'))} "
      f"| **{statistics.median(ratios):.2f}**{spread(ratios)} |")
print(f"| remote again, casd's action cache warm, fresh local cache | {full_warm:.2f}{spread(walls('full-remote-warm'))} "
      f"| {full_warm / local_full:.2f} |")
print(f"remote: {line}")
batch = math.ceil(count / actions) if actions else 8
predicted = full_warm + math.ceil(math.ceil(count / batch) / 2) * (F + batch * W)
print(f"the model below for P=2, B={batch} gives {predicted:.2f} s; the measured build, which also uploads "
      f"the worker ({os.path.getsize(worker) / 1e6:.0f} MB) once, took {full_remote:.2f} s")

# 3. remote caches
def http_requests(name):
    methods = collections.Counter()
    for line in open(f"{times}/{name}.access1"):
        methods[line.split()[0]] += 1
    return sum(methods.values()), ", ".join(f"{m} {n}" for m, n in sorted(methods.items()))
def grpc_requests(name):
    # casd at --log-level=info logs one "NAME request from [peer=…]" line for each RPC it serves.
    text = open(f"{times}/{name}.log1").read()
    if name.endswith("warm"):
        text = text[len(open(f"{times}/grpc-cold.log1").read()):]
    calls = collections.Counter(re.findall(RPC_PATTERN, text))
    return sum(calls.values()), ", ".join(f"{m} {n}" for m, n in sorted(calls.items()))
RPC_PATTERN = r"\[INFO\] (\w+) request from \[peer="
print(f"\n## 3. Remote caches, {count} masters, --jobs 2: cold (empty server, fresh local cache) and warm "
      "(the server as the cold build left it; another checkout, empty local cache)\n")
print("| cache | cold s | cold requests | warm s | warm requests | warm ÷ local --no-cache |")
print("|---|---:|---|---:|---|---:|")
for label, key, count_of in (("HTTP, nginx WebDAV (Bazel protocol)", "http", http_requests),
                             ("gRPC, buildbox-casd (REAPI)", "grpc", grpc_requests)):
    cold, warm = med(f"{key}-cold"), med(f"{key}-warm")
    cn, cd = count_of(f"{key}-cold"); wn, wd = count_of(f"{key}-warm")
    print(f"| {label} | {cold:.2f}{spread(walls(f'{key}-cold'))} | {cn}: {cd} | {warm:.2f}{spread(walls(f'{key}-warm'))} "
          f"| {wn}: {wd} | {warm / local_full:.2f} |")
print("requests: nginx's access log (one line a request), casd's log at --log-level=info (its \"NAME request from [peer=…]\" lines, one an RPC); round 1's")

# Model
print(f"\n## Model: time(P workers, batch B, U units) ≈ client(U) + ⌈⌈U/B⌉/P⌉ × (F + B·W)\n")
print(f"F = {1000 * F:.0f} ms an action, W = {1000 * W:.1f} ms a unit (fit of part 1); client({count}) = {full_warm:.2f} s "
      f"(part 2, executor cache warm: planning, Execute round trips, adoption, restore, packing; it does not shrink with P)")
print(f"local --jobs 2: {local_full:.2f} s\n")
print("| workers P | best batch | time s | speed-up over local --jobs 2 | smallest batch within 5 % | its time s | its speed-up |")
print("|---:|---:|---:|---:|---:|---:|---:|")
def model(p, batch, u=count, client=full_warm):
    return client + math.ceil(math.ceil(u / batch) / p) * (F + batch * W)
for p in (2, 10, 100):
    options = [(model(p, batch), batch) for batch in range(1, count + 1)]
    best, best_batch = min(options)
    within = min(batch for t, batch in options if t <= best * 1.05)
    print(f"| {p} | {best_batch} | {best:.2f} | {local_full / best:.2f}× | {within} | {model(p, within):.2f} | {local_full / model(p, within):.2f}× |")
print(f"\nbound for any P and B: local ÷ client({count}) = {local_full / full_warm:.2f}×")
print(f"\nran in {time.time() - started:.0f} s")
PY
