#!/usr/bin/env bash
# Animation benchmark: decode and composite every frame of generated 100- and 500-frame GIFs
# (480×270, varied delays) with Tessera (`inspect --decode` walks every frame through the
# compositor, holding only the canvas) against libvips (all pages), Pillow (iterate frames) and
# `gifsicle --explode`, in one run.
#
#   Benchmarks/animation.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-5}"
. Benchmarks/lib/prepare.sh
python3 Benchmarks/lib/make_gifs.py "$WORK" 100 500
python3 - "$WORK" <<'PY'
import json, sys
work = sys.argv[1]
pillow = ("import sys; from PIL import Image, ImageSequence; im = Image.open(sys.argv[1]); "
          "[f.convert('RGBA') for f in ImageSequence.Iterator(im)]")
cases = []
for count in (100, 500):
    gif = f"{work}/anim-{count}.gif"
    cases.append({"input": f"{count} frames 480×270",
                  "subject": [".build/release/tessera", "inspect", "--decode", gif],
                  "peers": {"vips avg [n=-1] (libvips)": ["vips", "avg", f"{gif}[n=-1]"],
                            "Pillow iterate frames": ["python3", "-c", pillow, gif],
                            "gifsicle --explode": ["gifsicle", "--explode", "--output", f"{work}/explode", gif]}})
json.dump({"title": "Decode and composite every frame of an animated GIF", "cases": cases},
          open(f"{work}/animation.json", "w"))
PY
python3 Benchmarks/lib/measure.py "$RUNS" "$WORK/animation.json"
rm -f "$WORK"/explode.*
