#!/usr/bin/env bash
# What an app pays to depend on Tessera for TesseraClient alone (issue 40): the packages SwiftPM
# resolves and a clean debug build of a one-file consumer, before and after, in one go.
#
#   Benchmarks/client-package.sh                       (this checkout)
#   BEFORE=/path/to/older/checkout Benchmarks/client-package.sh
#
# The consumer names Tessera by path (as `.package(url:)` would by address) with no trait
# settings, as Xcode's "Add Package Dependencies" adds it: the build side is off by default. A
# checkout from before that default, whose CommandLineTool trait was on by default, is named with
# `traits: []` to turn it off (SwiftPM refuses `traits:` for a package that declares none).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
WORK="$ROOT/Benchmarks/.work/client-package"
rm -rf "$WORK"; mkdir -p "$WORK"

consumer() {  # NAME TESSERA_CHECKOUT
    local folder="$WORK/$1" traits=""
    grep -q 'default(enabledTraits: \["CommandLineTool"' "$2/Package.swift" && traits=", traits: []"
    mkdir -p "$folder/Sources/App"
    cat > "$folder/Package.swift" <<SWIFT
// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "App",
    dependencies: [.package(path: "$2"$traits)],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "TesseraClient", package: "$(basename "$2")")])]
)
SWIFT
    cat > "$folder/Sources/App/main.swift" <<'SWIFT'
import Foundation
import TesseraClient
let configuration = ClientConfiguration(server: URL(string: "https://cdn.example.com/app")!,
                                        storeFolder: URL(fileURLWithPath: "/tmp/app-store"), device: "iPhone15,2")
print(configuration.server)
SWIFT
    local start end
    start=$(date +%s.%N)
    ( cd "$folder" && swift package resolve > "$folder/resolve.log" 2>&1 )
    end=$(date +%s.%N)
    RESOLVED[$1]=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["pins"]))' "$folder/Package.resolved" 2>/dev/null || echo 0)
    PINS[$1]=$(python3 -c 'import json,sys; print(" ".join(sorted(p["identity"] for p in json.load(open(sys.argv[1]))["pins"])))' "$folder/Package.resolved" 2>/dev/null || true)
    RESOLVE_S[$1]=$(python3 -c "print(f'{$end - $start:.1f}')")
    start=$(date +%s.%N)
    ( cd "$folder" && swift build > "$folder/build.log" 2>&1 ) || { tail -20 "$folder/build.log"; exit 1; }
    end=$(date +%s.%N)
    BUILD_S[$1]=$(python3 -c "print(f'{$end - $start:.1f}')")
}

declare -A RESOLVED PINS RESOLVE_S BUILD_S
NAMES=()
if [ -n "${BEFORE:-}" ]; then
    cp -r "$(realpath "$BEFORE")" "$WORK/tessera-before" 2> /dev/null || true
    rm -rf "$WORK/tessera-before/.build"
    consumer before "$WORK/tessera-before"; NAMES+=(before)
fi
git -C "$ROOT" worktree remove --force "$WORK/tessera" 2> /dev/null || true
mkdir -p "$WORK/tessera"; git -C "$ROOT" ls-files -z | (cd "$ROOT" && xargs -0 cp --parents -t "$WORK/tessera")
consumer after "$WORK/tessera"; NAMES+=(after)

echo
echo "A one-file app depending on Tessera for TesseraClient alone (debug build, 2 cores, packages from this machine's local copies)"
echo
echo "| checkout | packages resolved | resolve s | clean build s |"
echo "|---|---|---|---|"
for n in "${NAMES[@]}"; do echo "| $n | ${RESOLVED[$n]} | ${RESOLVE_S[$n]} | ${BUILD_S[$n]} |"; done
for n in "${NAMES[@]}"; do echo; echo "$n resolves: ${PINS[$n]}"; done
