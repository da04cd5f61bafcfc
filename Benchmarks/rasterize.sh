#!/usr/bin/env bash
# Vector rasterisation benchmark: Tessera's Rasterizing module (through the `rasterize` driver,
# release, with the PDFRasterizing trait) against the reference renderers, in one run: pdftoppm
# (poppler/Splash), pdftocairo (poppler-glib's cairo backend, the alternative to MuPDF),
# mutool draw (MuPDF's own tool) and rsvg-convert (librsvg). Each writes a PNG of the same size.
#
#   Benchmarks/rasterize.sh [RUNS]        (default 5 runs per command)
#
# Cases: one large render of a real PDF and SVG (render time dominates), and a batch of the
# real image-set files at 3x in one process (the tools are run once per file, as a build would).
#
# Then the default build's PDF renderer (Debian's mutool as pooled separate processes,
# TESSERA_PDF_RENDERER=process) against the in-process MuPDF of the PDFRasterizing trait, in the
# same binary: the large page, and every real image-set PDF of the fixtures at 1x, 2x and 3x
# (issue 37's target: within 1.5x).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-5}"
WORK=Benchmarks/.work/rasterize
mkdir -p "$WORK"

need=()
command -v pdftoppm >/dev/null || need+=(poppler-utils)
command -v rsvg-convert >/dev/null || need+=(librsvg2-bin)
command -v mutool >/dev/null || need+=(mupdf-tools)
[ -x /usr/bin/time ] || need+=(time)
if [ "${#need[@]}" -gt 0 ]; then
    sudo_cmd=(); [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${need[@]}" >&2
fi
scripts/ensure-system-packages.sh
swift build -c release --traits PDFRasterizing --product rasterize >&2
# SVGs are drawn by tessera-svg-worker, found beside the driver.
swift build -c release --traits PDFRasterizing --product tessera-svg-worker >&2
R=.build/release/rasterize
F=Tests/Fixtures/vectors
O="$WORK/out"
mkdir -p "$O"

# 12x the 299×77 pt logo; 150x the 18×20 pt SVG: a few megapixels each.
PW=3588; PH=924; SW=2700; SH=3000
pdf_batch_tessera=("$R" --scale 3); pdf_batch_poppler=""; pdf_batch_mutool=""
for name in gear:84:84 mastodon_logo:897:231 photo.fill.split:276:228; do
    IFS=: read -r n w h <<<"$name"
    pdf_batch_tessera+=("$F/$n.pdf" "$O/$n-t.png")
    pdf_batch_poppler+="pdftoppm -png -r 216 -scale-to-x $w -scale-to-y $h -singlefile $F/$n.pdf $O/$n-p; "
    pdf_batch_mutool+="mutool draw -q -o $O/$n-m.png -w $w -h $h $F/$n.pdf 1; "
done
json_list() { python3 -c 'import json,sys; print(json.dumps(sys.argv[1:]))' "$@"; }
json_string() { python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$1"; }

cat > "$WORK/rasterize.json" <<JSON
{"title": "Vector rasterisation to PNG",
 "cases": [
  {"input": "PDF logo ${PW}×${PH}",
   "subject": ["$R", "--size", "${PW}x${PH}", "$F/mastodon_logo.pdf", "$O/logo-t.png"],
   "peers": {"pdftoppm (poppler Splash)": ["pdftoppm", "-png", "-r", "864", "-scale-to-x", "$PW", "-scale-to-y", "$PH", "-singlefile", "$F/mastodon_logo.pdf", "$O/logo-p"],
             "pdftocairo (poppler cairo)": ["pdftocairo", "-png", "-transp", "-scale-to-x", "$PW", "-scale-to-y", "$PH", "-singlefile", "$F/mastodon_logo.pdf", "$O/logo-c"],
             "mutool draw (MuPDF)": ["mutool", "draw", "-q", "-o", "$O/logo-m.png", "-w", "$PW", "-h", "$PH", "$F/mastodon_logo.pdf", "1"]}},
  {"input": "3 PDF icons at 3x",
   "subject": $(json_list "${pdf_batch_tessera[@]}"),
   "peers": {"pdftoppm, once per file": ["bash", "-c", "$pdf_batch_poppler"],
             "mutool draw, once per file": ["bash", "-c", "$pdf_batch_mutool"]}},
  {"input": "SVG logo ${SW}×${SH}",
   "subject": ["$R", "--size", "${SW}x${SH}", "$F/brand_logo.svg", "$O/svg-t.png"],
   "peers": {"rsvg-convert (librsvg)": ["rsvg-convert", "-w", "$SW", "-h", "$SH", "$F/brand_logo.svg", "-o", "$O/svg-r.png"]}},
  {"input": "2 SVG icons at 3x",
   "subject": ["$R", "--scale", "3", "$F/brand_logo.svg", "$O/b-t.png", "$F/checkmark.seal.fill.svg", "$O/c-t.png"],
   "peers": {"rsvg-convert, once per file": ["bash", "-c", "rsvg-convert -w 54 -h 60 $F/brand_logo.svg -o $O/b-r.png; rsvg-convert -w 133 -h 133 $F/checkmark.seal.fill.svg -o $O/c-r.png"]}}
 ]}
JSON
python3 Benchmarks/lib/measure.py "$RUNS" "$WORK/rasterize.json"

# Every real image-set PDF in the fixtures, each at 1x, 2x and 3x in one process, as a build
# renders them.
mapfile -d '' real_pdfs < <(find Tests/Fixtures/fidelity Tests/Fixtures/vectors Tests/Fixtures/catalogs -name '*.pdf' -print0 | sort -z)
real_batch=("$R" --scale 1,2,3); i=0
for file in "${real_pdfs[@]}"; do real_batch+=("$file" "$O/r$i.png"); i=$((i + 1)); done
cat > "$WORK/renderers.json" <<JSON
{"title": "PDF renderer of the default build (mutool, separate pooled processes) against the PDFRasterizing trait (MuPDF in process)",
 "cases": [
  {"input": "PDF logo ${PW}×${PH}",
   "subject": ["env", "TESSERA_PDF_RENDERER=process", "$R", "--size", "${PW}x${PH}", "$F/mastodon_logo.pdf", "$O/logo-w.png"],
   "peers": {"in-process MuPDF (trait)": ["$R", "--size", "${PW}x${PH}", "$F/mastodon_logo.pdf", "$O/logo-i.png"]}},
  {"input": "${#real_pdfs[@]} real PDFs at 1x, 2x, 3x",
   "subject": $(json_list env TESSERA_PDF_RENDERER=process "${real_batch[@]}"),
   "peers": {"in-process MuPDF (trait)": $(json_list "${real_batch[@]}")}}
 ]}
JSON
python3 Benchmarks/lib/measure.py "$RUNS" "$WORK/renderers.json"
