#!/usr/bin/env bash
# PNG encode benchmark: re-encodes generated variant-sized images (photos with camera grain, RGB,
# and flat RGBA artwork) with `tessera convert --png-effort fast|default|max` and, in the same
# run, with Tessera's encoder before issue #14 (libpng, zlib 9, adaptive filters), libpng at
# zlib 6, libspng, `vips copy` and Pillow. Prints time, encode-only time, bytes and ratios.
#
#   Benchmarks/png-encode.sh [RUNS]        (default 3 runs per command)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-3}"
. Benchmarks/lib/prepare.sh
cc -O2 -o "$WORK/png_peer" Benchmarks/lib/png_peer.c $(pkg-config --cflags --libs libpng16 spng)
python3 Benchmarks/lib/make_variants.py "$WORK/png-encode"
mkdir -p "$WORK/png-encode-out"
python3 Benchmarks/lib/png_encode_bench.py "$RUNS" "$TESSERA" "$WORK/png_peer" "$WORK/png-encode-out" \
    "$WORK"/png-encode/*.png
