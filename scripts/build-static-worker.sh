#!/usr/bin/env bash
# scripts/build-static-worker.sh [--output PATH]: a fully static `tessera` for remote execution
# workers (docs/releasing.md#the-static-worker). A REAPI worker such as buildbox-casd runs an action
# in a sandbox that holds the action's input root and nothing else (no /usr, no libc, no loader),
# so the binary, uploaded once by digest, must be a static executable:
#   - `-static-executable`: glibc, the Swift runtime, Foundation, BoringSSL (swift-nio-ssl,
#     swift-crypto), SQLite (GRDB) and every system codec (libpng, libjpeg-turbo, libwebp, giflib,
#     libdeflate, liblzma, zlib) linked in from their static archives (Debian's -dev packages);
#   - `--traits CommandLineTool`: the default traits without FastInflate, because Debian ships
#     Intel ISA-L only as a shared library; PNG image data is then inflated by zlib (the same
#     pixels; Tests/DecodingTests/PNGRowReaderTests checks both);
#   - what it cannot do: SVG and HEIC (librsvg and libheif are loaded with dlopen, which a static
#     tessera does not try: the masters fail with a clear message) and PDF (`mutool` is a separate
#     program, which the sandbox does not hold: PDFs are carried unrasterised, as without mupdf-tools);
#   - built in .build-static, so neither .build nor .build-dist is rebuilt with other flags;
#   - stamped with the commit like scripts/dist.sh's build, and stripped.
# Default output: .build-static/tessera-worker. Not part of `make dist` or CI.
set -euo pipefail
OUTPUT=
case "${1:-}" in
    --output) OUTPUT=$(realpath -m "${2:?usage: scripts/build-static-worker.sh [--output PATH]}") ;;
    "") ;;
    *) echo "usage: scripts/build-static-worker.sh [--output PATH]" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
OUTPUT=${OUTPUT:-.build-static/tessera-worker}

COMMIT=unknown
if git rev-parse --git-dir > /dev/null 2>&1; then
    COMMIT=$(git rev-parse --short=12 HEAD)
    [ -z "$(git status --porcelain --untracked-files=no)" ] || COMMIT="$COMMIT-modified"
fi
STAMP=Sources/tessera/BuildStamp.swift
NEW_STAMP="// Written by scripts/dist.sh for a release build; not committed (.gitignore).
enum BuildStamp {
    static let commit = \"$COMMIT\"
}"
# The same file and text as scripts/dist.sh's, rewritten only when it changes.
[ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$NEW_STAMP" ] || printf '%s\n' "$NEW_STAMP" > "$STAMP"

# SwiftPM links a system library target with what its module map and `pkg-config --libs` name
# (-lpng16, -lwebp, -lsqlite3, ...): with -static those resolve to the .a archives, whose own
# dependencies (`Libs.private`: -lm, -lz, -lpthread) SwiftPM does not read. They are named once
# more at the end of the link line, where the archives that need them come before them.
PACKAGES="libpng16 libjpeg libwebp libwebpdemux libwebpmux libgif liblzma zlib libdeflate sqlite3"
LINK=()
for library in $(pkg-config --static --libs-only-l $PACKAGES | tr ' ' '\n' | awk 'NF && !seen[$0]++'); do
    LINK+=(-Xlinker "$library")
done
# Every archive the link needs must exist (with -static, ld fails on a missing one with a bare
# "cannot find -lX" after the whole compile): checked first, naming what to install.
LIBDIR=$(pkg-config --variable=libdir zlib)
for library in png16 jpeg webp webpdemux webpmux gif lzma z deflate sqlite3; do
    [ -f "$LIBDIR/lib$library.a" ] \
        || { echo "build-static-worker: no lib$library.a (install its -dev package)" >&2; exit 1; }
done

swift build -c release --product tessera --scratch-path .build-static --traits CommandLineTool \
    --static-swift-stdlib -Xswiftc -static-executable -Xswiftc -DTESSERA_STAMPED "${LINK[@]}" >&2
BINARY=.build-static/release/tessera

# A static executable has no program interpreter (PT_INTERP) and no dynamic section.
if readelf -l "$BINARY" | grep -q INTERP || readelf -d "$BINARY" | grep -q NEEDED; then
    echo "build-static-worker: $BINARY is not statically linked:" >&2
    readelf -d "$BINARY" | grep NEEDED >&2
    exit 1
fi
mkdir -p "$(dirname "$OUTPUT")"
install -m 755 -s "$BINARY" "$OUTPUT"
echo "$OUTPUT: $(du -h "$OUTPUT" | cut -f1), static, $("$OUTPUT" version | head -1)"
