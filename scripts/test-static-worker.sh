#!/usr/bin/env bash
# The release's remote worker where remote execution really runs it: buildbox-casd's bubblewrap
# sandbox holding the action's input root and nothing else (no /usr, no libc, no loader).
# `tessera run Pipelines/samples.yml` over Samples/ with --remote-executor on a casd started here
# must build byte for byte what a local --no-cache build of the same binary builds, with every
# work unit done by an action. CI runs it after scripts/dist.sh:
#
#   scripts/test-static-worker.sh dist/tessera-VERSION-linux-ARCH.tar.gz dist/tessera-worker-VERSION-linux-ARCH.tar.gz
#
# casd comes from scripts/ensure-reapi-servers.sh (make deps installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=${1:?usage: scripts/test-static-worker.sh TARBALL WORKER_TARBALL}
worker_tarball=${2:?usage: scripts/test-static-worker.sh TARBALL WORKER_TARBALL}
servers=${TESSERA_TEST_SERVERS:-$HOME/.cache/tessera-test-servers}
[ -x "$servers/buildbox/buildbox-casd" ] || { echo "test-static-worker: no buildbox-casd in $servers: run scripts/ensure-reapi-servers.sh" >&2; exit 1; }
command -v bwrap > /dev/null || { echo "test-static-worker: bwrap missing: run scripts/ensure-system-packages.sh" >&2; exit 1; }

work=$(mktemp -d)
casd_pid=""
cleanup() { [ -n "$casd_pid" ] && kill "$casd_pid" 2> /dev/null; wait 2> /dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
tar -xzf "$tarball" -C "$work"
release=$(echo "$work"/tessera-[0-9]*)
# Unpacked over the main tarball, as its README says: bin/tessera-worker beside bin/tessera.
mkdir -p "$work/worker"
tar -xzf "$worker_tarball" -C "$work/worker"
cp "$work"/worker/tessera-worker-*/bin/tessera-worker "$release/bin/"
tessera="$release/bin/tessera"
worker="$release/bin/tessera-worker"
[ -x "$worker" ] || { echo "test-static-worker: $worker_tarball has no bin/tessera-worker" >&2; exit 1; }
if readelf -l "$worker" | grep -q "Requesting program interpreter"; then
    echo "test-static-worker: $worker is dynamically linked; an empty sandbox cannot run it" >&2
    exit 1
fi

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$work/casd"
( cd "$work/casd" && exec "$servers/buildbox/buildbox-casd" --bind="127.0.0.1:$port" \
    --buildbox-run="$servers/buildbox/buildbox-run" --jobs=2 --log-level=info "$work/casd/cache" ) \
    > "$work/casd/log" 2>&1 &
casd_pid=$!
for _ in $(seq 1 100); do
    grep -q "Server listening on" "$work/casd/log" && break
    sleep 0.1
done
grep -q "Server listening on" "$work/casd/log" || { cat "$work/casd/log" >&2; exit 1; }

"$tessera" run Pipelines/samples.yml --input Samples --output "$work/local" --no-cache --progress quiet > /dev/null
"$tessera" run Pipelines/samples.yml --input Samples --output "$work/remote" --cache "$work/cache" --progress quiet \
    --remote-executor "grpc://127.0.0.1:$port" > "$work/remote.out"
cat "$work/remote.out"
if ! diff -r --exclude=report.json "$work/local" "$work/remote"; then
    echo "test-static-worker: the remote-executed build differs from the local one" >&2
    exit 1
fi
python3 - "$work/remote/report.json" << 'PY'
import json, sys
report = json.load(open(sys.argv[1]))
misses = {stage: counts.get("misses", 0) for stage, counts in (report.get("cache") or {}).items()
          if stage in ("write", "copy", "timing", "animate")}
warnings = [w for w in report.get("warnings", []) if w.get("stage") == "execute"]
if warnings or any(misses.values()):
    sys.exit(f"test-static-worker: work stayed local: misses {misses}, warnings {warnings}")
PY
echo "test-static-worker: Samples/ built by actions in casd's empty sandbox, byte-identical to the local build"
