#!/usr/bin/env bash
# Decode benchmark: Tessera's full decode of generated 8000×6000 JPEG, PNG and WebP files against
# the raw library tools (djpeg, dwebp), libvips and Pillow, in one run.
#
#   Benchmarks/decode.sh [RUNS]        (default 5 runs per command)
#   TESSERA_BEFORE=path/to/tessera Benchmarks/decode.sh   adds another build as a PNG peer (before/after in one run)
#
# Installs its peers when missing (apt: libvips-tools libjpeg-turbo-progs webp time; pip: pillow numpy).
# Inputs are generated into Benchmarks/.work/ (ignored by git) and reused.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-5}"

. Benchmarks/lib/prepare.sh
python3 Benchmarks/lib/make_inputs.py "$WORK" 8000 6000 jpeg png webp

JPG="$WORK/photo-8000x6000.jpg"; PNG="$WORK/photo-8000x6000.png"; WEBP="$WORK/photo-8000x6000.webp"
PILLOW='import sys; from PIL import Image; Image.MAX_IMAGE_PIXELS = None; Image.open(sys.argv[1]).load()'
BEFORE_PEER=""
if [ -n "${TESSERA_BEFORE:-}" ]; then
    BEFORE_PEER="\"tessera before (TESSERA_BEFORE)\": [\"$TESSERA_BEFORE\", \"inspect\", \"--decode\", \"$PNG\"], "
fi
cat > "$WORK/decode.json" <<JSON
{"title": "Full decode of 8000×6000 images",
 "cases": [
  {"input": "JPEG q90", "subject": ["$TESSERA", "inspect", "--decode", "$JPG"],
   "peers": {"djpeg (libjpeg-turbo)": ["djpeg", "-outfile", "/dev/null", "$JPG"],
             "vips avg (libvips)": ["vips", "avg", "$JPG"],
             "Pillow load": ["python3", "-c", "$PILLOW", "$JPG"]}},
  {"input": "PNG RGB", "subject": ["$TESSERA", "inspect", "--decode", "$PNG"],
   "peers": {$BEFORE_PEER"vips avg (libvips)": ["vips", "avg", "$PNG"],
             "Pillow load": ["python3", "-c", "$PILLOW", "$PNG"]}},
  {"input": "WebP q80", "subject": ["$TESSERA", "inspect", "--decode", "$WEBP"],
   "peers": {"dwebp -ppm (libwebp)": ["dwebp", "-ppm", "-quiet", "$WEBP", "-o", "/dev/null"],
             "vips avg (libvips)": ["vips", "avg", "$WEBP"],
             "Pillow load": ["python3", "-c", "$PILLOW", "$WEBP"]}}
 ]}
JSON
python3 Benchmarks/lib/measure.py "$RUNS" "$WORK/decode.json"
