#!/usr/bin/env bash
# Client benchmark: download and unpack every bundle the sample build has for one device
# (iPhone15,2, all tags) from nginx on loopback, with `client-demo` (TesseraClient: resumable
# downloads, SHA-256 check, atomic unpack into its store; 4 downloads at once) against `curl`
# fetching the same bundles in one process followed by `tessera bundle extract` of each, in one run.
#
#   Benchmarks/client.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-5}"
. Benchmarks/lib/prepare.sh
swift build -c release --product client-demo >&2
WORK="$(cd "$WORK" && pwd)"
BUILD="$WORK/client-build"
[ -f "$BUILD/manifest.json" ] || "$TESSERA" run Pipelines/samples.yml --input Samples --output "$BUILD" --progress plain >&2

. Benchmarks/lib/static-nginx.sh
static_nginx "$BUILD" "$WORK/client-nginx"

TAGS=$(python3 -c "import json,sys; m=json.load(open('$BUILD/manifest.json')); print(','.join(sorted({t for p in m['packs'] for t in p['tags']})))")
"$TESSERA" query "$BUILD/manifest.json" --device iPhone15,2 --tags "$TAGS" --json > "$WORK/client-query.json"
python3 - "$WORK" "$PORT" "$TAGS" "$BUILD" <<'PY'
import json, sys
work, port, tags, build = sys.argv[1:5]
answer = json.load(open(f"{work}/client-query.json"))
manifest = json.load(open(f"{build}/manifest.json"))
paths = [next(b["path"] for b in manifest["bundles"] if b["pack"] == item["pack"] and b["device"] == answer["device"])
         for item in answer["bundles"]]
server = f"http://127.0.0.1:{port}"
fetch = " ".join(f"-o {work}/curl/{i}.tsb '{server}/{p.replace(' ', '%20')}'" for i, p in enumerate(paths))
extract = " && ".join(f".build/release/tessera bundle extract {work}/curl/{i}.tsb {work}/curl/{i} > /dev/null"
                      for i in range(len(paths)))
total = sum(item["bytes"] for item in answer["bundles"])
json.dump({"title": f"Download and unpack {len(paths)} bundles ({total} bytes) of the sample build on loopback",
           "cases": [{"input": f"{len(paths)} bundles, iPhone15,2",
                      "subject": ["sh", "-c", f"rm -rf {work}/client-store && .build/release/client-demo --server {server} "
                                              f"--device iPhone15,2 --tags {tags} --store {work}/client-store"],
                      "peers": {"curl + tessera bundle extract": ["sh", "-c", f"rm -rf {work}/curl && mkdir {work}/curl && "
                                                                             f"curl -sf {fetch} && {extract}"]}}]},
          open(f"{work}/client.json", "w"))
PY
python3 Benchmarks/lib/measure.py "$RUNS" "$WORK/client.json"
echo "peers: $(curl --version | head -1 | cut -d' ' -f1-2), $(/usr/sbin/nginx -v 2>&1)"
