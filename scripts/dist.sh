#!/usr/bin/env bash
# `make dist`: dist/tessera-VERSION-linux-ARCH.tar.gz, a release of Tessera that runs with no
# Swift toolchain installed (docs/releasing.md).
#   - the Swift runtime and Foundation are linked in (`--static-swift-stdlib`); the system codec
#     libraries stay shared (their security updates come from the distribution), listed in
#     scripts/runtime-packages.txt and installed by the one apt-get line in the tarball's README;
#   - not `-static-executable`: librsvg and libheif are loaded with dlopen, which a static glibc
#     executable cannot do safely, and glibc's resolver would be linked in too;
#   - stripped; the commit is compiled in (Sources/tessera/BuildStamp.swift, -DTESSERA_STAMPED);
#   - built in .build-dist, so a developer's .build is never rebuilt with other flags;
#   - the tarball is reproducible: sorted, owned by root, dated by the commit.
# It also writes dist/tessera-worker-VERSION-linux-ARCH.tar.gz, the remote execution worker
# (docs/remote-execution.md): a fully static tessera (scripts/build-static-worker.sh) for sandboxes
# that hold nothing else. A tarball of its own, because it links glibc (LGPL-2.1) in, which the
# main binary never does (THIRD-PARTY-NOTICES.md says what giving it to others asks).
# `scripts/dist.sh --install PREFIX` installs the binary as PREFIX/bin/tessera instead.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=$(sed -n 's/^ *static let number = "\(.*\)"$/\1/p' Sources/tessera/ReleaseVersion.swift)
[ -n "$VERSION" ] || { echo "dist: no version in Sources/tessera/ReleaseVersion.swift" >&2; exit 1; }
ARCH=$(uname -m)
NAME="tessera-$VERSION-linux-$ARCH"

COMMIT=unknown
DATE=$(date -u +%s)
if git rev-parse --git-dir > /dev/null 2>&1; then
    COMMIT=$(git rev-parse --short=12 HEAD)
    [ -z "$(git status --porcelain --untracked-files=no)" ] || COMMIT="$COMMIT-modified"
    DATE=$(git log -1 --format=%ct)
    # A tagged commit must be tagged with the version the source says it is.
    for tag in $(git tag --points-at HEAD --list 'v[0-9]*'); do
        [ "$tag" = "v$VERSION" ] || { echo "dist: HEAD is tagged $tag but ReleaseVersion.number is $VERSION" >&2; exit 1; }
    done
fi

STAMP=Sources/tessera/BuildStamp.swift
NEW_STAMP="// Written by scripts/dist.sh for a release build; not committed (.gitignore).
enum BuildStamp {
    static let commit = \"$COMMIT\"
}"
# Rewritten only when it changes, so an unchanged tree does not recompile.
[ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$NEW_STAMP" ] || printf '%s\n' "$NEW_STAMP" > "$STAMP"

swift build -c release --product tessera --traits CommandLineTool,FastInflate --static-swift-stdlib --scratch-path .build-dist \
    -Xswiftc -DTESSERA_STAMPED >&2
# librsvg runs in its own process, beside bin/tessera (docs/vectors.md): a small C program.
# The same flags as tessera's, so the two builds share one build plan; the Swift runtime is linked
# in statically here too (swiftc links even a C program with it), so it runs without Swift.
swift build -c release --product tessera-svg-worker --traits CommandLineTool,FastInflate --static-swift-stdlib \
    --scratch-path .build-dist -Xswiftc -DTESSERA_STAMPED >&2
BINARY=.build-dist/release/tessera
SVG_WORKER=.build-dist/release/tessera-svg-worker

if [ "${1:-}" = "--install" ]; then
    PREFIX="${2:?usage: scripts/dist.sh --install PREFIX}"
    install -d "$PREFIX/bin"
    install -m 755 -s "$BINARY" "$PREFIX/bin/tessera"
    install -m 755 -s "$SVG_WORKER" "$PREFIX/bin/tessera-svg-worker"
    echo "installed $PREFIX/bin/tessera ($("$PREFIX/bin/tessera" --version))"
    exit 0
fi

STAGE=dist/$NAME
rm -rf "$STAGE"; mkdir -p "$STAGE/bin"
install -m 755 -s "$BINARY" "$STAGE/bin/tessera"
install -m 755 -s "$SVG_WORKER" "$STAGE/bin/tessera-svg-worker"
cp LICENSE THIRD-PARTY-NOTICES.md CHANGELOG.md scripts/runtime-packages.txt "$STAGE/"
PACKAGES=$(grep -v '^#' scripts/runtime-packages.txt | grep . | tr '\n' ' ' | sed 's/ $//')
cat > "$STAGE/README.md" <<README
# Tessera $VERSION ($COMMIT), Linux $ARCH

Decode, slice and package app images the way Xcode and the App Store do. Documentation: the
README.md and docs/ of the source this was built from (commit $COMMIT).

Install the system libraries it loads (Debian 12 or Ubuntu 24.04; the Swift runtime is inside
the binary), then put \`bin/tessera\` on your PATH:

    sudo apt-get install -y --no-install-recommends $PACKAGES

    tessera version
    tessera run app-thinning --input MyApp --output build

Licence: Apache-2.0 (LICENSE); the libraries it links or loads: THIRD-PARTY-NOTICES.md.
README
find "$STAGE" -exec touch -d "@$DATE" {} +
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$DATE" -C dist -cf - "$NAME" | gzip -9n > "dist/$NAME.tar.gz"
echo "dist/$NAME.tar.gz: $(du -h "dist/$NAME.tar.gz" | cut -f1) ($(du -h "$STAGE/bin/tessera" | cut -f1) binary, commit $COMMIT)"

# The remote worker, unpacked beside bin/tessera (where `run --remote-executor` looks for it).
WORKER=tessera-worker-$VERSION-linux-$ARCH
WORKER_STAGE=dist/$WORKER
rm -rf "$WORKER_STAGE"; mkdir -p "$WORKER_STAGE/bin"
scripts/build-static-worker.sh --output "$WORKER_STAGE/bin/tessera-worker" >&2
cp LICENSE THIRD-PARTY-NOTICES.md "$WORKER_STAGE/"
cat > "$WORKER_STAGE/README.md" <<README
# Tessera $VERSION ($COMMIT) remote execution worker, Linux $ARCH

\`bin/tessera-worker\` is Tessera $VERSION linked fully statically, for \`tessera run
--remote-executor\`: every action uploads it and runs it in a sandbox that holds nothing else. Unpack
it over the main tarball (it then sits beside \`bin/tessera\`, where \`run\` looks for it) or name
it with \`--remote-worker\`. It has no librsvg, libheif or mutool: assets that need them are built
by \`tessera\` itself. It links glibc (LGPL-2.1-or-later) statically: see THIRD-PARTY-NOTICES.md.
README
find "$WORKER_STAGE" -exec touch -d "@$DATE" {} +
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$DATE" -C dist -cf - "$WORKER" | gzip -9n > "dist/$WORKER.tar.gz"
echo "dist/$WORKER.tar.gz: $(du -h "dist/$WORKER.tar.gz" | cut -f1) (static worker, commit $COMMIT)"
