#!/usr/bin/env bash
# Downscale benchmark: thumbnails (fit 1024×1024) of generated photo-like 8000×6000 and
# 16000×12000 images (JPEG q90, PNG RGB, PNG RGBA, WebP q80) by Tessera and, side by side in the
# same run, vipsthumbnail, ImageMagick (with and without -define jpeg:size) and Pillow.
#
#   Benchmarks/downscale.sh [RUNS] [SIZES...]     default: 5 runs, sizes 8000x6000 16000x12000
#
# Installs its peers when missing. Inputs are generated once into Benchmarks/.work/ (ignored by
# git): the 16000×12000 PNGs take a few minutes to make the first time.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-5}"; shift || true
SIZES=("${@:-8000x6000 16000x12000}")
read -r -a SIZES <<< "${SIZES[*]}"

. Benchmarks/lib/prepare.sh
inputs=()
for size in "${SIZES[@]}"; do
    width="${size%x*}"; height="${size#*x}"
    python3 Benchmarks/lib/make_inputs.py "$WORK" "$width" "$height" jpeg png png-rgba webp
    for ext in jpg png rgba.png webp; do
        [ -f "$WORK/photo-${size}.${ext}" ] && inputs+=("$WORK/photo-${size}.${ext}")
    done
done
python3 Benchmarks/lib/downscale_bench.py "$RUNS" "$TESSERA" "$WORK" "${inputs[@]}"
