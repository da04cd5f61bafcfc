#!/usr/bin/env bash
# Issue 28's downscale target: `tessera downscale` of a generated 8000×6000 photo JPEG (q90) to a
# PNG fitting 1024×1024, against `vipsthumbnail -s 1024` writing PNG, in one go. ROUNDS rounds
# (default 3) of RUNS runs each (default 7), the two tools interleaved so that a busy moment
# hits both; each round prints the median times and their ratio, then the ratios' median and
# spread, and both files' sizes. TESSERA_BEFORE=path/to/tessera adds that build's file size
# ("today's"): the target is Tessera ≤ 0.9× vips's time with a file no larger than before.
#
#   Benchmarks/downscale-vips.sh [ROUNDS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${1:-3}"
RUNS="${2:-7}"
. Benchmarks/lib/prepare.sh
python3 Benchmarks/lib/make_inputs.py "$WORK" 8000 6000 jpeg
INPUT="$WORK/photo-8000x6000.jpg"
OUT="$(pwd)/$WORK/downscale-vips"
mkdir -p "$OUT"
python3 - "$ROUNDS" "$RUNS" "$TESSERA" "$INPUT" "$OUT" "${TESSERA_BEFORE:-}" <<'PY'
import os, statistics, subprocess, sys, time
rounds, runs, tessera, source, out, before = int(sys.argv[1]), int(sys.argv[2]), *sys.argv[3:]
tools = {
    "tessera": [tessera, "downscale", source, f"{out}/tessera.png", "--fit", "1024x1024"],
    "vips": ["vipsthumbnail", source, "-s", "1024", "-o", f"{out}/vips.png"],
}
def timed(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start
for command in tools.values():
    timed(command)  # warm the page cache and the binaries
print(f"\n8000×6000 JPEG → PNG fitting 1024×1024; {rounds} rounds of {runs} interleaved runs; "
      f"load average {' '.join(open('/proc/loadavg').read().split()[:3])}\n")
print("| round | tessera s (median) | vipsthumbnail s (median) | tessera ÷ vips |")
print("|---|---:|---:|---:|")
ratios = []
for r in range(1, rounds + 1):
    times = {name: [] for name in tools}
    for _ in range(runs):
        for name, command in tools.items():
            times[name].append(timed(command))
    t, v = statistics.median(times["tessera"]), statistics.median(times["vips"])
    ratios.append(t / v)
    print(f"| {r} | {t:.3f} | {v:.3f} | {t / v:.2f} |")
print(f"\ntessera ÷ vips: **{statistics.median(ratios):.2f}** (spread {min(ratios):.2f}–{max(ratios):.2f}); target ≤ 0.9")
sizes = {name: os.path.getsize(f"{out}/{name}.png") for name in tools}
line = f"bytes: tessera {sizes['tessera']:,}, vips {sizes['vips']:,} ({sizes['tessera'] / sizes['vips']:.3f}× vips)"
if before:
    subprocess.run([before, "downscale", source, f"{out}/before.png", "--fit", "1024x1024"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    size = os.path.getsize(f"{out}/before.png")
    line += f"; before (TESSERA_BEFORE) {size:,}: {'no larger' if sizes['tessera'] <= size else 'LARGER'}"
print(line)
PY
