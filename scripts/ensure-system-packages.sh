#!/usr/bin/env bash
# For developing Tessera (`make samples`, `make test`). Three groups, kept apart:
#   runtime  what a release binary needs where it runs: scripts/runtime-packages.txt (the only list;
#            a user of the release tarball installs just these, with the line in its README);
#   build    the -dev packages Tessera compiles against, and pkg-config;
#   test     servers, reference tools, the browser and debootstrap, which only the tests run.
# Installs the system libraries Tessera links against, and the servers its tests start
# (nginx-light for the remote cache and as the Range/ETag reference, PostgreSQL for the
# multi-instance catalog and BuildGrid's scheduler, bubblewrap for buildbox-casd's sandbox, wrk for
# the serve benchmark; scripts/ensure-reapi-servers.sh then installs casd and BuildGrid themselves) and the browser its HTML report is tested
# in (Debian's chromium, driven headless by Tests/Browser/open_page.py with python3), when missing.
# Debian/Ubuntu only (apt-get); any other system gets a clear message and a non-zero exit.
set -euo pipefail

# imagequant: only a build with the LossyPalette trait links it (GPL-3.0-or-later; docs/png-encoding.md),
# but its tests run in CI, so it is installed everywhere.
# Vectors (docs/vectors.md): librsvg for SVG (loaded with dlopen at the first SVG: the runtime library
# comes with librsvg2-dev); MuPDF for PDF, linked only with the PDFRasterizing trait
# (AGPL-3.0) but tested in CI, so installed everywhere. Debian 12's libmupdf-dev is a static archive that
# declares none of the libraries it needs: jbig2dec, openjp2, mujs, gumbo, harfbuzz and freetype are named here.
# libheif for HEIC: loaded with dlopen at the first HEIC too; libheif-dev gives its header and libheif1.
modules=(libpng16 libjpeg libwebp libwebpdemux libwebpmux libgif liblzma zlib libdeflate libisal imagequant
         librsvg-2.0 mupdf jbig2dec libopenjp2 mujs gumbo harfbuzz freetype2 libheif)
mapfile -t runtime_packages < <(grep -v '^#' "$(dirname "$0")/runtime-packages.txt" | grep .)
build_packages=(pkg-config libpng-dev libjpeg-dev libwebp-dev libgif-dev liblzma-dev zlib1g-dev libdeflate-dev libisal-dev libimagequant-dev
                libheif-dev
                librsvg2-dev libmupdf-dev libjbig2dec0-dev libopenjp2-7-dev libmujs-dev libgumbo-dev libharfbuzz-dev libfreetype-dev)
# debootstrap: scripts/test-dist.sh makes a Debian root without Swift for the release tarball.
test_packages=(python3-yaml poppler-utils librsvg2-bin libheif-examples
               nginx-light postgresql bubblewrap openssl wrk debootstrap curl
               chromium fonts-dejavu-core python3)
packages=("${runtime_packages[@]}" "${build_packages[@]}" "${test_packages[@]}")
# Programs the tests and benchmarks run, each with the package that brings it
# (pdftoppm and rsvg-convert: the vector reference renderers; heif-convert: the HEIC reference decoder).
# mutool (mupdf-tools): the default build's PDF renderer, run as a separate process (docs/vectors.md).
# chromium: the size report page's browser tests. bwrap (bubblewrap): the sandbox buildbox-casd runs remote actions in;
# openssl: the REAPI tests' self-signed certificates.
programs=(/usr/bin/mutool /usr/sbin/nginx /usr/bin/wrk /usr/bin/pdftoppm /usr/bin/rsvg-convert /usr/bin/heif-convert /usr/bin/chromium
          /usr/sbin/debootstrap /usr/bin/curl /usr/bin/bwrap /usr/bin/openssl)

missing() {
    command -v pkg-config >/dev/null 2>&1 || return 0
    for module in "${modules[@]}"; do
        pkg-config --exists "$module" || return 0
    done
    for program in "${programs[@]}"; do
        [ -x "$program" ] || return 0
    done
    compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || return 0
    command -v python3 >/dev/null 2>&1 || return 0
    /usr/bin/python3 -c 'import yaml' 2>/dev/null || return 0
    return 1
}

if ! missing; then
    exit 0
fi

echo "tessera: installing system packages: ${packages[*]}" >&2
if ! command -v apt-get >/dev/null 2>&1; then
    echo "tessera: apt-get not found; install these yourself: ${packages[*]}" >&2
    exit 1
fi
run_as_root=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        run_as_root=(sudo)
    else
        echo "tessera: need root (or sudo) to install: ${packages[*]}" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
"${run_as_root[@]}" apt-get update -qq >&2 || { echo "tessera: apt-get update failed" >&2; exit 1; }
"${run_as_root[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >&2 || {
    echo "tessera: apt-get install failed for: ${packages[*]}" >&2
    exit 1
}
if missing; then
    echo "tessera: packages installed but pkg-config still cannot find: ${modules[*]}" >&2
    exit 1
fi
