#!/usr/bin/env bash
# Pipeline benchmark: COUNT generated photo masters @3x (3000–4000 px, half JPEG, half PNG, with
# grain) through `tessera run Pipelines/app-thinning.yml`, against vipsthumbnail making the same
# 2x and 1x variants with `xargs -P2`, in one go: each in its master's format, as Tessera writes
# them (JPEG at Q=90, PNG at vips's default compression). Tessera runs once per `png-effort` in
# PNG_EFFORTS (default: `default fast`). Prints, per run, the throughput ratio,
# the output-bytes ratio (the 2x and 1x files each tool wrote), both peak RSS, and Tessera's
# per-stage breakdown (the first run's) from report.json.
#
#   Benchmarks/pipeline.sh [COUNT] [PIPELINE]
#   PNG_EFFORTS="default" Benchmarks/pipeline.sh 200    only the pipeline's own effort
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${1:-200}"
PIPELINE="${2:-Pipelines/app-thinning.yml}"
. Benchmarks/lib/prepare.sh
PNG_EFFORTS="${PNG_EFFORTS:-default fast}"
INPUT="$WORK/pipeline-input-$COUNT"
python3 Benchmarks/lib/make_masters.py "$INPUT" "$COUNT"
rm -rf "$WORK"/pipeline-tessera* "$WORK/pipeline-vips"
cut -d' ' -f1 /proc/loadavg > "$WORK/pipeline-load"   # the machine may be shared: the ratios come from one run
mkdir -p "$WORK/pipeline-vips"

for effort in $PNG_EFFORTS; do
    sed -E "s/^( *png-effort:) *[a-z]+/\1 $effort/" "$PIPELINE" > "$WORK/pipeline-$effort.yml"
    /usr/bin/time -f "%e %M %U %S" -o "$WORK/pipeline-tessera-$effort.time" \
        "$TESSERA" run "$WORK/pipeline-$effort.yml" --no-cache --input "$INPUT" --output "$WORK/pipeline-tessera-$effort" \
        --progress plain > "$WORK/pipeline-tessera-$effort.log" 2>&1 || { tail -5 "$WORK/pipeline-tessera-$effort.log"; exit 1; }
done

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

python3 - "$WORK" "$COUNT" $PNG_EFFORTS <<'PY'
import json, os, subprocess, sys
work, count, efforts = sys.argv[1], sys.argv[2], sys.argv[3:]
def timing(name):
    seconds, kilobytes, user, system = open(f"{work}/pipeline-{name}.time").read().split()[-4:]
    return float(seconds), int(kilobytes) / 1024, float(user) + float(system)
def size(folder, keep):
    total = 0
    for root, _, files in os.walk(folder):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files if keep(f))
    return total
v_time, v_rss, v_cpu = timing("vips")
def variant(ext):
    return lambda f: "@3x" not in f and f.endswith(ext)
v_png, v_jpg = size(f"{work}/pipeline-vips", variant(".png")), size(f"{work}/pipeline-vips", variant(".jpg"))
v_bytes = v_png + v_jpg
vips = subprocess.run(["vips", "--version"], capture_output=True, text=True).stdout.strip()
tessera = subprocess.run([f"{os.getcwd()}/.build/release/tessera", "version"], capture_output=True, text=True).stdout.split("\n")[0]
print(f"\nPipeline: {count} masters @3x → 2x and 1x in the master's format (Tessera also validates and copies the 3x, slices and packs)")
load = open(f"{work}/pipeline-load").read().split()[0]
print(f"load average (1 min) at the start {load}, at the end {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
print(f"| tool | wall s | CPU s (user+sys) | peak RSS MB | 2x+1x bytes | of which PNG | of which JPEG | throughput × vips | CPU × vips | bytes × vips | PNG bytes × vips |")
print(f"|---|---|---|---|---|---|---|---|---|---|---|")
for effort in efforts:
    t_time, t_rss, t_cpu = timing(f"tessera-{effort}")
    folder = f"{work}/pipeline-tessera-{effort}/variants"
    t_png, t_jpg = size(folder, variant(".png")), size(folder, variant(".jpg"))
    t_bytes = t_png + t_jpg
    print(f"| {tessera} run, png-effort {effort} | {t_time:.1f} | {t_cpu:.1f} | {t_rss:.0f} | {t_bytes:,} | {t_png:,} | {t_jpg:,} "
          f"| **{v_time / t_time:.2f}** | {t_cpu / v_cpu:.2f} | {t_bytes / v_bytes:.3f} | {t_png / max(v_png, 1):.3f} |")
print(f"| vipsthumbnail × xargs -P2 ({vips}) | {v_time:.1f} | {v_cpu:.1f} | {v_rss:.0f} | {v_bytes:,} | {v_png:,} | {v_jpg:,} | 1 | 1 | 1 | 1 |")
work_first = f"{work}/pipeline-tessera-{efforts[0]}"
report = json.load(open(f"{work_first}/report.json"))
stages = report.get("stages", {})
total = sum(s["jobSeconds"] for s in stages.values()) or 1
print(f"\nTessera by stage, png-effort {efforts[0]} (run wall {report.get('wallSeconds', 0):.1f} s):")
print("| stage | jobs | wall s | share of wall | job s | CPU s |")
print("|---|---|---|---|---|---|")
for name, s in sorted(stages.items(), key=lambda kv: -kv[1]["jobSeconds"]):
    share = s["wallSeconds"] / max(report.get("wallSeconds", 0), 1e-9)
    print(f"| {name} | {s['jobs']} | {s['wallSeconds']:.2f} | {share:.0%} | {s['jobSeconds']:.2f} | {s['cpuSeconds']:.2f} |")
pack = sum(stages.get(k, {}).get("wallSeconds", 0) for k in ("compress", "bundle", "publish"))
print(f"pack stage (compress + bundle + publish) wall: {pack:.2f} s = {pack / max(report.get('wallSeconds', 1e-9), 1e-9):.1%} of the run")
bundles = size(f"{work_first}/bundles", lambda f: f.endswith(".tsb"))
print(f"bundle bytes: {bundles:,}")
PY
