#!/usr/bin/env bash
# Pipeline benchmark: COUNT generated photo masters @3x (3000–4000 px, half JPEG, half PNG, with
# grain) through `tessera run Pipelines/app-thinning.yml`, against vipsthumbnail making the same
# 2x and 1x variants with `xargs -P2`, in one go: each in its master's format, as Tessera writes
# them (JPEG at Q=90, PNG at vips's default compression). Prints the throughput ratio, the
# output-bytes ratio (the 2x and 1x files each tool wrote), both peak RSS, and Tessera's per-stage
# breakdown from report.json.
#
#   Benchmarks/pipeline.sh [COUNT] [PIPELINE]
#   PNG_EFFORT=fast Benchmarks/pipeline.sh 200    the same pipeline with another `png-effort`
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${1:-200}"
PIPELINE="${2:-Pipelines/app-thinning.yml}"
. Benchmarks/lib/prepare.sh
if [ -n "${PNG_EFFORT:-}" ]; then
    sed -E "s/^( *png-effort:) *[a-z]+/\1 $PNG_EFFORT/" "$PIPELINE" > "$WORK/pipeline-$PNG_EFFORT.yml"
    PIPELINE="$WORK/pipeline-$PNG_EFFORT.yml"
fi
INPUT="$WORK/pipeline-input-$COUNT"
python3 Benchmarks/lib/make_masters.py "$INPUT" "$COUNT"
rm -rf "$WORK/pipeline-tessera" "$WORK/pipeline-vips"
cut -d' ' -f1 /proc/loadavg > "$WORK/pipeline-load"   # the machine may be shared: the ratios come from one run
mkdir -p "$WORK/pipeline-vips"

/usr/bin/time -f "%e %M %U %S" -o "$WORK/pipeline-tessera.time" \
    "$TESSERA" run "$PIPELINE" --no-cache --input "$INPUT" --output "$WORK/pipeline-tessera" --progress plain \
    > "$WORK/pipeline-tessera.log" 2>&1 || { tail -5 "$WORK/pipeline-tessera.log"; exit 1; }

# vipsthumbnail's size is a bounding box: the width of the 2x and 1x variants, height unbounded.
python3 - "$INPUT" "$(pwd)/$WORK/pipeline-vips" > "$WORK/pipeline-vips.jobs" <<'PY'
import os, sys
from PIL import Image
folder, out = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(folder)):
    width = Image.open(os.path.join(folder, name)).size[0]
    stem = name.split("@")[0]
    ext = ".jpg[Q=90]" if name.endswith(".jpg") else ".png"
    for scale in (2, 1):
        suffix = "" if scale == 1 else "@2x"
        print(f"{os.path.join(folder, name)}\t{width * scale // 3}\t{out}/{stem}{suffix}{ext}")
PY
/usr/bin/time -f "%e %M %U %S" -o "$WORK/pipeline-vips.time" sh -c \
    "tr '\t' '\n' < '$WORK/pipeline-vips.jobs' | xargs -n3 -P2 sh -c 'vipsthumbnail \"\$0\" --size \"\$1\"x100000 -o \"\$2\"'"

python3 - "$WORK" "$COUNT" <<'PY'
import json, os, subprocess, sys
work, count = sys.argv[1], sys.argv[2]
def timing(name):
    seconds, kilobytes, user, system = open(f"{work}/pipeline-{name}.time").read().split()[-4:]
    return float(seconds), int(kilobytes) / 1024, float(user) + float(system)
def size(folder, keep):
    total = 0
    for root, _, files in os.walk(folder):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files if keep(f))
    return total
t_time, t_rss, t_cpu = timing("tessera")
v_time, v_rss, v_cpu = timing("vips")
def variant(ext):
    return lambda f: "@3x" not in f and f.endswith(ext)
t_png, t_jpg = size(f"{work}/pipeline-tessera/variants", variant(".png")), size(f"{work}/pipeline-tessera/variants", variant(".jpg"))
v_png, v_jpg = size(f"{work}/pipeline-vips", variant(".png")), size(f"{work}/pipeline-vips", variant(".jpg"))
t_bytes, v_bytes = t_png + t_jpg, v_png + v_jpg
vips = subprocess.run(["vips", "--version"], capture_output=True, text=True).stdout.strip()
tessera = subprocess.run([f"{os.getcwd()}/.build/release/tessera", "version"], capture_output=True, text=True).stdout.split("\n")[0]
effort = os.environ.get("PNG_EFFORT") or "as in the pipeline file"
print(f"\nPipeline: {count} masters @3x → 2x and 1x in the master's format (Tessera also validates and copies the 3x, slices and packs; png-effort {effort})")
load = open(f"{work}/pipeline-load").read().split()[0]
print(f"load average (1 min) at the start {load}, at the end {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
print(f"| tool | wall s | CPU s (user+sys) | peak RSS MB | 2x+1x bytes | of which PNG | of which JPEG |")
print(f"|---|---|---|---|---|---|---|")
print(f"| {tessera} run | {t_time:.1f} | {t_cpu:.1f} | {t_rss:.0f} | {t_bytes:,} | {t_png:,} | {t_jpg:,} |")
print(f"| vipsthumbnail × xargs -P2 ({vips}) | {v_time:.1f} | {v_cpu:.1f} | {v_rss:.0f} | {v_bytes:,} | {v_png:,} | {v_jpg:,} |")
print(f"ratios tessera/vips: throughput {v_time / t_time:.2f}× (time {t_time / v_time:.2f}; CPU {t_cpu / v_cpu:.2f}), output bytes {t_bytes / v_bytes:.3f} "
      f"(PNG {t_png / max(v_png, 1):.3f}, JPEG {t_jpg / max(v_jpg, 1):.3f}), peak RSS {t_rss / v_rss:.2f}")
report = json.load(open(f"{work}/pipeline-tessera/report.json"))
stages = report.get("stages", {})
total = sum(s["jobSeconds"] for s in stages.values()) or 1
print(f"\nTessera by stage (run wall {report.get('wallSeconds', 0):.1f} s):")
print("| stage | jobs | wall s | share of wall | job s | CPU s |")
print("|---|---|---|---|---|---|")
for name, s in sorted(stages.items(), key=lambda kv: -kv[1]["jobSeconds"]):
    share = s["wallSeconds"] / max(report.get("wallSeconds", 0), 1e-9)
    print(f"| {name} | {s['jobs']} | {s['wallSeconds']:.2f} | {share:.0%} | {s['jobSeconds']:.2f} | {s['cpuSeconds']:.2f} |")
pack = sum(stages.get(k, {}).get("wallSeconds", 0) for k in ("compress", "bundle", "publish"))
print(f"pack stage (compress + bundle + publish) wall: {pack:.2f} s = {pack / max(report.get('wallSeconds', 1e-9), 1e-9):.1%} of the run")
bundles = size(f"{work}/pipeline-tessera/bundles", lambda f: f.endswith(".tsb"))
print(f"bundle bytes: {bundles:,}")
PY
