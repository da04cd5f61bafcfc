#!/usr/bin/env bash
# Signed-manifest benchmark (issue 42): the client's CPU time per manifest refresh with the
# signature checked (`--trusted-root`: sidecar fetched, Ed25519 over the root, keys and statement
# documents, SHA-256 of the manifest's bytes) against without, on a 5,000-asset manifest (the
# sample build's assets repeated under new names) served by nginx on loopback. `client-demo
# --refreshes N` refreshes N times in one process, each into a fresh store (a full fetch and
# decode every time), and prints the process CPU time (user + system) per refresh; RUNS
# processes (default 5) per mode, medians and the ratio (verified ÷ unverified) printed.
#
#   Benchmarks/signing.sh [ASSETS] [REFRESHES]
set -euo pipefail
cd "$(dirname "$0")/.."
ASSETS="${1:-5000}"
REFRESHES="${2:-20}"
RUNS="${RUNS:-5}"
. Benchmarks/lib/prepare.sh
swift build -c release --product client-demo >&2
WORK="$(cd "$WORK" && pwd)"
S="$WORK/signing"
rm -rf "$S" && mkdir -p "$S/keys"
BUILD="$WORK/client-build"
[ -f "$BUILD/manifest.json" ] || "$TESSERA" run Pipelines/samples.yml --input Samples --output "$BUILD" --progress plain >&2
cp -r "$BUILD" "$S/build"
python3 - "$S/build/manifest.json" "$ASSETS" <<'PY'
import json, sys
path, count = sys.argv[1], int(sys.argv[2])
manifest = json.load(open(path))
base = manifest["assets"]
assets = []
for i in range(count):
    asset = json.loads(json.dumps(base[i % len(base)]))
    asset["name"] = f"asset-{i:05d}"
    for variant in asset["variants"]:
        variant["path"] = variant["path"].replace("variants/", f"variants/{i:05d}/", 1)
    assets.append(asset)
manifest["assets"] = assets
json.dump(manifest, open(path, "w"), sort_keys=True, indent=2)
PY
T="$(cd "$(dirname "$TESSERA")" && pwd)/$(basename "$TESSERA")"
(cd "$S/keys" && "$T" keys generate root && "$T" keys generate ci && "$T" keys root-init --root-key root.key \
    && "$T" keys delegate --root-key root.key --signing-key ci.pub --expires 1d) >&2
"$TESSERA" sign "$S/build" --key "$S/keys/ci.key" --signing-chain "$S/keys/chain.json" --channel production \
    --signed-version 1 --expires 1d >&2

. Benchmarks/lib/static-nginx.sh
static_nginx "$S/build" "$S/nginx"

SERVER="http://127.0.0.1:$PORT"
for run in $(seq 1 "$RUNS"); do
    .build/release/client-demo --server "$SERVER" --device iPhone15,2 --tags x --store "$S/store-plain" \
        --refreshes "$REFRESHES" >> "$S/plain.txt"
    .build/release/client-demo --server "$SERVER" --device iPhone15,2 --tags x --store "$S/store-signed" \
        --refreshes "$REFRESHES" --trusted-root "$S/keys/root.json" >> "$S/signed.txt"
done
python3 - "$S" "$ASSETS" "$REFRESHES" <<'PY'
import os, statistics, sys
folder, assets, refreshes = sys.argv[1], sys.argv[2], sys.argv[3]
def times(name):
    return [float(line.split()[-1]) for line in open(f"{folder}/{name}.txt") if line.startswith("refreshes")]
plain, signed = times("plain"), times("signed")
size = os.path.getsize(f"{folder}/build/manifest.json")
print(f"manifest refresh, {assets} assets ({size / 1e6:.2f} MB manifest), {refreshes} refreshes a process, {len(plain)} processes a mode")
print(f"{'client CPU per refresh':<28}{'median':>10}{'spread':>20}")
for name, values in (("unverified", plain), ("verified (--trusted-root)", signed)):
    print(f"{name:<28}{statistics.median(values):>7.2f} ms{min(values):>10.2f}–{max(values):.2f} ms")
print(f"{'ratio verified / unverified':<28}{statistics.median(signed) / statistics.median(plain):>10.3f}")
PY
