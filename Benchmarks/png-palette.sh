#!/usr/bin/env bash
# Lossy PNG palettes: `tessera convert --png-palette lossy` at several quality ranges against
# Tessera's truecolour PNG and pngquant (same libimagequant) on the corpus photos and app artwork:
# time, bytes, PSNR against the truecolour pixels, in one run.
#
#   Benchmarks/png-palette.sh [RUNS]       (default 3 runs per command)
#
# Needs a release build with the LossyPalette trait (built here: libimagequant is GPL-3.0, see
# docs/png-encoding.md). Installs pngquant when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-3}"
WORK=Benchmarks/.work/palette
mkdir -p "$WORK"
Benchmarks/lib/ensure-peers.sh
swift build -c release --product tessera --traits LossyPalette >&2
CORPUS=Tests/Fixtures/corpus
python3 Benchmarks/lib/png_palette_bench.py "$RUNS" .build/release/tessera "$WORK" \
    photo:$CORPUS/still/sdwebimage/TestImage.jpg \
    photo:$CORPUS/still/pillow/jpeg/flower.jpg \
    photo:$CORPUS/still/sdwebimage/TestICCProfile.jpg \
    photo:$CORPUS/still/image-webp/reference/gallery2/3_webp_ll.png \
    art:$CORPUS/xcassets/food-truck/App/Assets.xcassets/AppIcon.appiconset/FoodTruckIcon.png \
    art:$CORPUS/xcassets/food-truck/App/Assets.xcassets/AppIcon.appiconset/icon_512x512@2x.png \
    art:$CORPUS/xcassets/food-truck/FoodTruckKit/Assets.xcassets/box/Composed.imageset/BoxPreview@3x.png \
    art:$CORPUS/xcassets/food-truck/FoodTruckKit/Assets.xcassets/donut/dough/white-full.imageset/white-full@3x.png
