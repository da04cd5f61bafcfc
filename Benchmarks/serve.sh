#!/usr/bin/env bash
# Serving benchmark: `tessera serve` (release) under wrk on loopback, 64 connections, beside nginx
# (Debian nginx-light) serving the same blob files. Publishes the Samples build, then measures:
#   query          GET /v1/channels/production/query?device=iPhone15,2&tags=Green   (peer: nginx
#                  serving the same answer as a static file: the floor for any dynamic answer)
#   bundle suffix  GET /b/<largest>.tsb with Range: bytes=-65536 (a client reading the trailing index)
#   bundle full    GET /b/<largest>.tsb, the Samples build's largest bundle (~0.6 MB)
#   big full       GET /b/<digest>.tsb of a 16 MiB blob (random bytes, seed 1) stored with PUT /v1/blobs:
#                  throughput, and memory under 64 slow-draining whole-file downloads
# and prints requests/s, p99 latency, errors (non-2xx/3xx and socket errors), each server's CPU time
# per request (user + system, from /proc) and Tessera's RSS before and after each run; the full and query runs are repeated to show whether RSS settles.
# nginx serves the same files twice, on two ports: with its default `sendfile off` and with
# `sendfile on`. The suffix and full cases run RUNS times (default 3), each time Tessera and both
# nginx servers one after another, and print the ratios' median with their spread.
# Both servers log every request to a file, buffered (nginx: access_log buffer=64k flush=1s;
# Tessera: its request log, many lines per write when requests log at once). The load average before
# the runs is printed: on a shared machine other builds take CPU from both servers alike.
#
#   Benchmarks/serve.sh [SECONDS]      (default 10 s per run; each run is far over 10,000 requests)
#   TESSERA_BINARY=PATH Benchmarks/serve.sh   measures that release binary instead (an earlier commit's, for before/after)
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN="${1:-10}"
RUNS="${RUNS:-3}"
WORK=Benchmarks/.work/serve
mkdir -p "$WORK"
scripts/ensure-system-packages.sh
if [ -n "${TESSERA_BINARY:-}" ]; then
    TESSERA=$TESSERA_BINARY
else
    swift build -c release --product tessera --traits CommandLineTool,FastInflate >&2
    TESSERA=.build/release/tessera
fi

if [ ! -f "$WORK/samples/manifest.json" ]; then
    "$TESSERA" run Pipelines/app-thinning.yml --input Samples --output "$WORK/samples" --progress plain >&2
fi
rm -rf "$WORK/run" && mkdir -p "$WORK/run/nginx"
echo bench-token > "$WORK/run/token"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 200); do (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0; sleep 0.05; done; echo "nothing listens on $1" >&2; return 1; }

TPORT=$(free_port)
"$TESSERA" serve --database "sqlite:$WORK/run/catalog.sqlite" --store "$WORK/run/store" --port "$TPORT" \
    --token-file "$WORK/run/token" 2>"$WORK/run/serve.log" &
TPID=$!
NPORT=$(free_port)
NPORT_SENDFILE=$(free_port)
ABS_WORK=$(cd "$WORK" && pwd)
user=""; [ "$(id -u)" -eq 0 ] && user="user root root;"
cat > "$WORK/run/nginx/nginx.conf" <<CONF
$user
daemon off;
worker_processes auto;
pid $ABS_WORK/run/nginx/nginx.pid;
events { worker_connections 1024; }
http {
    access_log $ABS_WORK/run/nginx/access.log combined buffer=64k flush=1s;
    default_type application/octet-stream;
    client_body_temp_path $ABS_WORK/run/nginx/body;
    server {
        listen 127.0.0.1:$NPORT;
        root $ABS_WORK/run/www;
    }
    server {
        listen 127.0.0.1:$NPORT_SENDFILE;
        root $ABS_WORK/run/www;
        sendfile on;
    }
}
CONF
cleanup() { kill "$TPID" 2>/dev/null || true; [ -n "${NPID:-}" ] && kill "$NPID" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT
wait_port "$TPORT"
"$TESSERA" publish "$WORK/samples" --server "http://127.0.0.1:$TPORT" --token-file "$WORK/run/token" --channel production >&2

LARGEST=$(python3 -c "import json,sys; m=json.load(open(sys.argv[1])); print(max(m['bundles'], key=lambda b: b['bytes'])['sha256'])" "$WORK/samples/manifest.json")
QUERY="/v1/channels/production/query?device=iPhone15,2&tags=Green"
mkdir -p "$WORK/run/www/b"
ln -s "$ABS_WORK/run/store/blobs/${LARGEST:0:2}/$LARGEST" "$WORK/run/www/b/$LARGEST.tsb"
python3 -c "import random,sys; sys.stdout.buffer.write(random.Random(1).randbytes(16 << 20))" > "$WORK/run/big.blob"
BIG=$(sha256sum "$WORK/run/big.blob" | cut -d' ' -f1)
curl -sf -X PUT -H "Authorization: Bearer bench-token" --data-binary @"$WORK/run/big.blob" \
    "http://127.0.0.1:$TPORT/v1/blobs/$BIG" > /dev/null
ln -s "$ABS_WORK/run/store/blobs/${BIG:0:2}/$BIG" "$WORK/run/www/b/$BIG.tsb"
curl -sf "http://127.0.0.1:$TPORT$QUERY" > "$WORK/run/www/query.json"
/usr/sbin/nginx -p "$ABS_WORK/run/nginx" -c "$ABS_WORK/run/nginx/nginx.conf" -e "$ABS_WORK/run/nginx/error.log" &
NPID=$!
wait_port "$NPORT"
wait_port "$NPORT_SENDFILE"

LOAD=$(cut -d' ' -f1-3 /proc/loadavg)
rss() { awk '/VmRSS/ {print $2}' "/proc/$TPID/status"; }
# CPU time (user + system, clock ticks) of the server a run measures: Tessera's process, or nginx's
# master and workers. Per request it hardly depends on what else the machine runs, unlike req/s.
cpu() { local pids=$TPID; [[ $1 == nginx-* ]] && pids="$NPID $(pgrep -P "$NPID" | tr '\n' ' ')"
        for p in $pids; do awk '{print $14 + $15}' "/proc/$p/stat"; done | awk '{s += $1} END {print s}'; }
run() { # name url [header]
    local name=$1 url=$2 header=${3:-}
    local before; before=$(rss)
    local cpu_before; cpu_before=$(cpu "$name")
    if [ -n "$header" ]; then wrk -t2 -c64 -d"${SECONDS_PER_RUN}s" --latency -H "$header" "$url" > "$WORK/run/$name.txt"
    else wrk -t2 -c64 -d"${SECONDS_PER_RUN}s" --latency "$url" > "$WORK/run/$name.txt"; fi
    echo "$name $before $(rss) $(( $(cpu "$name") - cpu_before ))" >> "$WORK/run/rss.txt"
}
: > "$WORK/run/rss.txt"
run tessera-query "http://127.0.0.1:$TPORT$QUERY"
run nginx-query "http://127.0.0.1:$NPORT/query.json"
for r in $(seq "$RUNS"); do
    run "tessera-suffix$r" "http://127.0.0.1:$TPORT/b/$LARGEST.tsb" "Range: bytes=-65536"
    run "nginx-suffix$r" "http://127.0.0.1:$NPORT/b/$LARGEST.tsb" "Range: bytes=-65536"
    run "nginx-sendfile-suffix$r" "http://127.0.0.1:$NPORT_SENDFILE/b/$LARGEST.tsb" "Range: bytes=-65536"
    run "tessera-full$r" "http://127.0.0.1:$TPORT/b/$LARGEST.tsb"
    run "nginx-full$r" "http://127.0.0.1:$NPORT/b/$LARGEST.tsb"
    run "nginx-sendfile-full$r" "http://127.0.0.1:$NPORT_SENDFILE/b/$LARGEST.tsb"
done
run tessera-big "http://127.0.0.1:$TPORT/b/$BIG.tsb"
run nginx-big "http://127.0.0.1:$NPORT/b/$BIG.tsb"
# The same load again: RSS that keeps climbing run after run would be a leak, not a working set.
run tessera-big-again "http://127.0.0.1:$TPORT/b/$BIG.tsb"
run tessera-query-again "http://127.0.0.1:$TPORT$QUERY"
HWM=$(awk '/VmHWM/ {print $2}' "/proc/$TPID/status")

python3 - "$WORK/run" "$HWM" "$(nginx -v 2>&1 | sed 's/.*\///')" "$(wrk --version 2>&1 | head -1 | awk '{print $2}')" "$LOAD" "$(nproc)" "$(getconf CLK_TCK)" "$RUNS" <<'PY'
import re, statistics, sys
folder, hwm, nginx_version, wrk_version, load, cores, ticks, runs = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], int(sys.argv[7]), int(sys.argv[8])
def parse(name):
    text = open(f"{folder}/{name}.txt").read()
    def unit(value, suffix, table):
        return float(value) * table.get(suffix, 1)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    m = re.search(r"99%\s+([\d.]+)(us|ms|s)", text)
    p99 = unit(m.group(1), m.group(2), {"us": 0.001, "ms": 1, "s": 1000})
    m = re.search(r"Transfer/sec:\s+([\d.]+)(B|KB|MB|GB)", text)
    transfer = unit(m.group(1), m.group(2), {"B": 1 / 2**20, "KB": 1 / 1024, "MB": 1, "GB": 1024})
    total = int(re.search(r"(\d+) requests in", text).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    errors = (int(non2xx.group(1)) if non2xx else 0) + (sum(map(int, sock.groups())) if sock else 0)
    return rps, p99, transfer, total, errors
rss = {line.split()[0]: (int(line.split()[1]), int(line.split()[2])) for line in open(f"{folder}/rss.txt")}
cpu = {line.split()[0]: int(line.split()[3]) for line in open(f"{folder}/rss.txt")}
def cpu_per_request(name):  # microseconds of server CPU time per request
    return cpu[name] * 1e6 / ticks / parse(name)[3]
print(f"\nwrk {wrk_version}, 64 connections, 2 threads, loopback; peer: nginx {nginx_version} (worker_processes auto)")
print(f"both log every request, buffered; load average before the runs: {load} on {cores} cores")
print(f"{'case':<16}{'tessera req/s':>14}{'p99 ms':>9}{'MB/s':>9}{'requests':>10}{'errors':>8}"
      f"{'nginx req/s':>13}{'p99 ms':>9}{'MB/s':>9}{'ratio':>8}{'RSS MB before→after':>22}"
      f"{'CPU µs/req':>12}{'nginx':>8}{'ratio':>7}")
for case in ["query", "suffix1", "full1", "big"]:
    t, n = parse(f"tessera-{case}"), parse(f"nginx-{case}")
    before, after = rss[f"tessera-{case}"]
    tc, nc = cpu_per_request(f"tessera-{case}"), cpu_per_request(f"nginx-{case}")
    print(f"{case:<16}{t[0]:>14.0f}{t[1]:>9.2f}{t[2]:>9.0f}{t[3]:>10}{t[4]:>8}{n[0]:>13.0f}{n[1]:>9.2f}{n[2]:>9.0f}"
          f"{t[0] / n[0]:>8.2f}{before / 1024:>12.1f}→{after / 1024:<9.1f}{tc:>12.0f}{nc:>8.0f}{nc / tc:>7.2f}")
for case in ["big-again", "query-again"]:
    t = parse(f"tessera-{case}")
    before, after = rss[f"tessera-{case}"]
    print(f"{case:<16}{t[0]:>14.0f}{t[1]:>9.2f}{t[2]:>9.0f}{t[3]:>10}{t[4]:>8}{'':>13}{'':>9}{'':>9}{'':>8}"
          f"{before / 1024:>12.1f}→{after / 1024:.1f}")
print(f"tessera peak RSS {hwm / 1024:.1f} MB. Goals: query p99 ≤ 5 ms, bundle ratio ≥ 1.0 against both nginx servers, 0 errors.")
print(f"\nBundles, {runs} runs (each: Tessera, nginx sendfile off, nginx sendfile on, back to back): Tessera req/s ÷ nginx req/s,"
      " median (spread); errors in all runs")
print(f"{'case':<10}{'tessera req/s':>15}{'nginx off':>11}{'nginx on':>10}{'× nginx off':>24}{'× nginx on':>24}{'errors':>8}")
for case in ["suffix", "full"]:
    t = [parse(f"tessera-{case}{r}") for r in range(1, runs + 1)]
    off = [parse(f"nginx-{case}{r}") for r in range(1, runs + 1)]
    on = [parse(f"nginx-sendfile-{case}{r}") for r in range(1, runs + 1)]
    def ratios(peer):
        values = [a[0] / b[0] for a, b in zip(t, peer)]
        return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"
    errors = sum(x[4] for x in t + off + on)
    print(f"{case:<10}{statistics.median(x[0] for x in t):>15.0f}{statistics.median(x[0] for x in off):>11.0f}"
          f"{statistics.median(x[0] for x in on):>10.0f}{ratios(off):>24}{ratios(on):>24}{errors:>8}")
print("ratio: Tessera req/s ÷ nginx req/s (> 1: Tessera faster). CPU µs/req: the server's user + system time per")
print("request (nginx: master and workers); its ratio, nginx ÷ Tessera, is the throughput ratio the two would have")
print("on the same CPU time, which moves far less than req/s when other work shares the machine.")
print("The query peer is nginx sending the same answer")
print("as a static file, the floor for any dynamic answer; both share the machine's 2 cores with wrk.")
PY
