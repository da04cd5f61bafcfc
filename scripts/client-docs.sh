#!/usr/bin/env bash
# TesseraClient's DocC documentation (Sources/TesseraClient/TesseraClient.docc and the doc comments),
# built with the toolchain's `docc` into .build/docc/TesseraClient (a static site: open
# index.html through any web server). Every symbol and article link must resolve: a broken one
# fails (CI runs this). The symbol graphs come from the debug build `make test` made, with its traits.
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT
swift package dump-symbol-graph --traits LossyPalette,PDFRasterizing > "$graphs/log" 2>&1 || { tail -30 "$graphs/log"; exit 1; }
rm "$graphs/log"
cp .build/*/symbolgraph/TesseraClient*.symbols.json "$graphs/"
rm -rf .build/docc/TesseraClient
mkdir -p .build/docc
docc convert Sources/TesseraClient/TesseraClient.docc --additional-symbol-graph-dir "$graphs" \
    --output-path .build/docc/TesseraClient --fallback-display-name TesseraClient \
    --fallback-bundle-identifier org.tessera.TesseraClient --warnings-as-errors > /dev/null
echo "TesseraClient documentation: .build/docc/TesseraClient" >&2
