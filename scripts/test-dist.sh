#!/usr/bin/env bash
# The release tarball where no Swift is installed (issue 40): a minimal Debian 12 root made with
# `debootstrap --variant=minbase`, the runtime packages installed by the one apt-get line the
# tarball's README gives (scripts/runtime-packages.txt), the tarball unpacked, `tessera version`
# run, and Samples/ built with Pipelines/samples.yml — byte-identical to the same build by the
# developer binary (REFERENCE, default .build/debug/tessera: what `make test` built).
#
#   scripts/test-dist.sh dist/tessera-VERSION-linux-ARCH.tar.gz [REFERENCE]
#
# Needs root (chroot, mount) and debootstrap (scripts/ensure-system-packages.sh installs it).
# The Debian root is kept in $TESSERA_DEBOOTSTRAP_CACHE when set (a second run skips debootstrap).
set -euo pipefail
cd "$(dirname "$0")/.."
TARBALL=$(realpath "${1:?usage: scripts/test-dist.sh TARBALL [REFERENCE]}")
REFERENCE=$(realpath "${2:-.build/debug/tessera}")
[ "$(id -u)" -eq 0 ] || { echo "test-dist: needs root (chroot)" >&2; exit 1; }
command -v debootstrap > /dev/null || { echo "test-dist: debootstrap is not installed" >&2; exit 1; }
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
PACKAGES=$(grep -v '^#' scripts/runtime-packages.txt | grep . | tr '\n' ' ')

WORK=$(mktemp -d /tmp/tessera-dist-test.XXXXXX)
ROOT=${TESSERA_DEBOOTSTRAP_CACHE:-$WORK/root}
cleanup() {
    umount "$ROOT/proc" 2> /dev/null || true
    rm -rf "$WORK"
    [ -n "${TESSERA_DEBOOTSTRAP_CACHE:-}" ] || rm -rf "$ROOT"
}
trap cleanup EXIT
start=$SECONDS
if [ ! -x "$ROOT/usr/bin/apt-get" ]; then
    debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" > "$WORK/debootstrap.log" 2>&1 \
        || { tail -20 "$WORK/debootstrap.log"; exit 1; }
fi
echo "test-dist: debootstrap took $((SECONDS - start)) s" >&2
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
mount -t proc proc "$ROOT/proc"

# Nothing of Swift may be in the root: the tarball has to bring what it needs.
if chroot "$ROOT" sh -c 'command -v swift || find / -xdev -name "libswiftCore.so*" | grep .'; then
    echo "test-dist: the Debian root has Swift in it; the test would prove nothing" >&2; exit 1
fi
start=$SECONDS
# shellcheck disable=SC2086
chroot "$ROOT" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $PACKAGES" \
    > "$WORK/apt.log" 2>&1 || { tail -20 "$WORK/apt.log"; exit 1; }
echo "test-dist: the runtime packages took $((SECONDS - start)) s" >&2

rm -rf "$ROOT/opt/tessera" "$ROOT/work"; mkdir -p "$ROOT/opt/tessera" "$ROOT/work/Pipelines"
tar -xzf "$TARBALL" -C "$ROOT/opt/tessera" --strip-components=1
grep -q "apt-get install -y --no-install-recommends $(echo $PACKAGES)" "$ROOT/opt/tessera/README.md" \
    || { echo "test-dist: the tarball's README does not give the runtime packages line" >&2; exit 1; }
cp -r Samples "$ROOT/work/"; cp Pipelines/samples.yml "$ROOT/work/Pipelines/"
cp -r "$ROOT/work" "$WORK/reference"

VERSION_LINE=$(chroot "$ROOT" /opt/tessera/bin/tessera version | head -1)
echo "test-dist: $VERSION_LINE" >&2
case "$VERSION_LINE" in
    "tessera "*"(commit "*) ;;
    *) echo "test-dist: 'tessera version' names no commit: $VERSION_LINE" >&2; exit 1 ;;
esac
chroot "$ROOT" sh -c 'cd /work && /opt/tessera/bin/tessera run Pipelines/samples.yml --input Samples --output out --no-cache --progress quiet' \
    || { echo "test-dist: the samples build failed in the Debian root" >&2; exit 1; }
( cd "$WORK/reference" && "$REFERENCE" run Pipelines/samples.yml --input Samples --output out --no-cache --progress quiet > /dev/null )
# report.json holds wall and CPU times; everything else must be the same bytes.
if ! diff -r --exclude=report.json "$WORK/reference/out" "$ROOT/work/out"; then
    echo "test-dist: the release build's output differs from the developer build's" >&2; exit 1
fi
echo "test-dist: $(find "$ROOT/work/out" -type f | wc -l) files byte-identical to the developer build" >&2
# SVG is drawn by bin/tessera-svg-worker, a separate program: it too must run without Swift.
cp Tests/Fixtures/vectors/brand_logo.svg "$ROOT/work/logo.svg"
chroot "$ROOT" sh -c 'cd /work && /opt/tessera/bin/tessera convert logo.svg logo.png --scale 3' \
    || { echo "test-dist: the release could not draw an SVG in the Debian root (bin/tessera-svg-worker)" >&2; exit 1; }
"$REFERENCE" convert Tests/Fixtures/vectors/brand_logo.svg "$WORK/logo.png" --scale 3 > /dev/null
cmp "$WORK/logo.png" "$ROOT/work/logo.png" \
    || { echo "test-dist: the release's SVG render differs from the developer build's" >&2; exit 1; }
echo "test-dist: an SVG drawn by bin/tessera-svg-worker, byte-identical to the developer build's" >&2
