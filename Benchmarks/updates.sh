#!/usr/bin/env bash
# Update benchmark (issue 55, Done-when G1–G4): what a device holding every pack of a build pays to
# update, through TesseraClient (`client-demo`, release), in one run:
#   - a generated catalog of COUNT image sets (default 5,000; every set tagged, 20 on-demand packs)
#     through Pipelines/app-thinning.yml with 8 device classes (its 5 and 3 more real ones, as the
#     issue's "20 packs × 8 device classes"; written to the work folder as pipeline.yml, so the
#     user's pipeline is unchanged), build v1; then v2 … v12, each built
#     `--against` the one before with ONE image changed; and v2' (v2 again, nothing changed,
#     `--against` v2);
#   - the device (iPhone18,2, every tag) installs v1, then updates, its bytes counted from nginx's
#     access log (`$bytes_sent`: heads and bodies the device receives):
#     G1  v1 → v2 on nginx serving the output folder and on `tessera serve` (v1 then v2 published
#         to a channel; nginx as a counting proxy in front), D against P (the changed entries'
#         transfer bytes for the device): D ≤ 1.10 × P + 16 KiB; beside the whole-bundle path
#         (the changed bundles + manifest.json) and zsync of the changed `.tsb` (zsyncmake'd,
#         `zsync -i` the v1 bundle, over the same nginx; bytes of the .zsync file and ranges);
#     G2  v2 → v2' (nothing changed for it): ≤ 4 KiB, on both hosts;
#     G3  v1 → v11 (10 builds behind): D against P summed over those builds; v1 → v12 (11 behind,
#         past the 10 predecessors a build lists): against P summed + manifest.json.xz;
#     G4  the v1 → v2 update from nginx: the time client-demo takes to begin the access (refresh,
#         patch, objects, the new bundle folder, the switch; printed by client-demo) ≤ 1 s, and the
#         process's peak RSS (`/usr/bin/time -v`) ≤ 64 MB over a no-op refresh of the same store;
#         median of RUNS (default 3), each from a fresh copy of the v1 store.
# Ratios < 1 are within the target. Not run in CI.
#
#   Benchmarks/updates.sh [COUNT]
#   SWIFT_BUILD_PATH=.build-x Benchmarks/updates.sh    builds (release) into another build folder
#   TESSERA_BINARY=… CLIENT_DEMO=… Benchmarks/updates.sh   measures those release binaries
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${1:-5000}"
RUNS="${RUNS:-3}"
DEVICE="${DEVICE:-iPhone18,2}"
BUILD_PATH="${SWIFT_BUILD_PATH:-.build}"
if [ -z "${TESSERA_BINARY:-}" ]; then
    swift build --build-path "$BUILD_PATH" -c release --product tessera --traits CommandLineTool,FastInflate >&2
    TESSERA_BINARY="$BUILD_PATH/release/tessera"
fi
if [ -z "${CLIENT_DEMO:-}" ]; then
    swift build --build-path "$BUILD_PATH" -c release --product client-demo --traits CommandLineTool,FastInflate >&2
    CLIENT_DEMO="$BUILD_PATH/release/client-demo"
fi
export TESSERA_BINARY
. Benchmarks/lib/prepare.sh
command -v zsyncmake > /dev/null || apt-get install -y zsync > /dev/null 2>&1 || true
TESSERA="$(cd "$(dirname "$TESSERA")" && pwd)/$(basename "$TESSERA")"
CLIENT_DEMO="$(cd "$(dirname "$CLIENT_DEMO")" && pwd)/$(basename "$CLIENT_DEMO")"
B="$WORK/updates"
rm -rf "$B" && mkdir -p "$B/input" "$B/www" "$B/manifests" "$B/nginx"
B="$(cd "$B" && pwd)"
LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)
export TESSERA_CACHE_DIR="$B/cache"

# ---- the builds -------------------------------------------------------------------------------
# app-thinning.yml's stages as they are, its slice devices extended from 5 to 8 classes: the iPhone XS
# (3x, 4 GB, apple5 GPU, iOS 18 at most), the iPhone 6s (2x sRGB, 2 GB) and the iPad mini 6 (2x P3).
# G1 is stated for 8 device classes; each adds 20 bundles and their entries to the manifest a device
# patches and decodes.
python3 - Pipelines/app-thinning.yml "$B/pipeline.yml" <<'PY'
import re, sys
source, target = sys.argv[1:3]
text = open(source).read()
line = re.compile(r'^(    devices: )\[(.*)\]$', re.M)
found = line.findall(text)
assert len(found) == 1, "app-thinning.yml: expected one slice devices line"
devices = re.findall(r'"([^"]+)"', found[0][1])
devices += [d for d in ["iPhone11,2", "iPhone8,1", "iPad14,1"] if d not in devices]
assert len(devices) == 8, devices
open(target, "w").write(line.sub(lambda m: m.group(1) + "[" + ", ".join(f'"{d}"' for d in devices) + "]", text))
PY
python3 Benchmarks/lib/make_update_catalog.py "$B/input/Bench.xcassets" "$COUNT"
build() {   # build NAME [AGAINST]
    local against=()
    [ -n "${2:-}" ] && against=(--against "$B/$2")
    /usr/bin/time -f "%e" -o "$B/$1.time" "$TESSERA" run "$B/pipeline.yml" --input "$B/input" \
        --output "$B/$1" "${against[@]}" > "$B/$1.log" 2>&1 || { tail -20 "$B/$1.log"; exit 1; }
    cp "$B/$1/manifest.json" "$B/manifests/$1.json"
    echo "built $1 in $(cat "$B/$1.time") s" >&2
}
build v1
for k in $(seq 2 12); do
    python3 Benchmarks/lib/make_update_catalog.py "$B/input/Bench.xcassets" "$COUNT" --change "$k" > "$B/changed-v$k"
    build "v$k" "v$((k - 1))"
    [ "$k" = 2 ] && build v2same v2
    # Only v1, v2, v2', v11 and v12 are served; a build needs only the one before it.
    [ "$k" -ge 4 ] && [ "$k" -le 11 ] && rm -rf "$B/v$((k - 1))"
done

# ---- nginx: the output folder (root www/, current -> vN) and a counting proxy to tessera serve --
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 200); do (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0; sleep 0.05; done; echo "nothing listens on $1" >&2; return 1; }
for v in v1 v2 v2same v11 v12; do ln -s "$B/$v" "$B/www/$v"; done
mkdir -p "$B/www/zsync"
SPORT=$(free_port); PPORT=$(free_port); TPORT=$(free_port)
user=""; [ "$(id -u)" -eq 0 ] && user="user root root;"
cat > "$B/nginx/nginx.conf" <<CONF
$user
daemon off; worker_processes 1; pid $B/nginx/nginx.pid; error_log $B/nginx/error.log;
events { worker_connections 256; }
http {
    log_format bytes '\$bytes_sent \$status \$request_method \$request_uri';
    client_body_temp_path $B/nginx; proxy_temp_path $B/nginx; fastcgi_temp_path $B/nginx;
    uwsgi_temp_path $B/nginx; scgi_temp_path $B/nginx;
    types { application/octet-stream tsb; application/json json; }
    default_type application/octet-stream;
    server { listen 127.0.0.1:$SPORT; root $B/www; access_log $B/nginx/static.log bytes; }
    server { listen 127.0.0.1:$PPORT; access_log $B/nginx/proxy.log bytes; client_max_body_size 1g;
             location / { proxy_pass http://127.0.0.1:$TPORT; proxy_http_version 1.1; proxy_set_header Connection ""; } }
}
CONF
echo bench-token > "$B/token"
"$TESSERA" serve --database "sqlite:$B/serve.sqlite" --store "$B/serve-store" --port "$TPORT" \
    --token-file "$B/token" 2> "$B/serve.log" &
TPID=$!
/usr/sbin/nginx -p "$B/nginx" -c "$B/nginx/nginx.conf" -e "$B/nginx/error.log" &
NPID=$!
trap 'kill $NPID $TPID 2>/dev/null || true; wait 2>/dev/null || true' EXIT
wait_port "$TPORT"; wait_port "$SPORT"; wait_port "$PPORT"

TAGS=$(python3 -c "import json; m=json.load(open('$B/manifests/v1.json')); print(','.join(sorted({t for p in m['packs'] for t in p['tags']})))")
STATIC="http://127.0.0.1:$SPORT/current"
serve_to() { ln -sfn "$B/$1" "$B/www/current"; }
# counted LOG CMD...: runs CMD, appends to $B/counted.tsv "label bytes requests" for what LOG gained.
counted() {
    local label="$1" log="$2"; shift 2
    local before; before=$(wc -l < "$log" 2>/dev/null || echo 0)
    "$@" > "$B/$label.out" 2> "$B/$label.err" || { echo "$label failed:" >&2; tail -5 "$B/$label.err" >&2; exit 1; }
    sleep 0.2
    tail -n +"$((before + 1))" "$log" > "$B/$label.requests"
    echo "$label $(awk '{s += $1} END {print s + 0}' "$B/$label.requests") $(wc -l < "$B/$label.requests")" >> "$B/counted.tsv"
}
client_static() { "$CLIENT_DEMO" --server "$STATIC" --device "$DEVICE" --tags "$TAGS" --store "$1"; }
client_serve() { "$CLIENT_DEMO" --server "http://127.0.0.1:$PPORT" --channel bench --device "$DEVICE" --tags "$TAGS" --store "$1"; }
: > "$B/counted.tsv"; touch "$B/nginx/static.log" "$B/nginx/proxy.log"

# ---- nginx serving the output folder --------------------------------------------------------
serve_to v1
counted install-v1 "$B/nginx/static.log" client_static "$B/store-v1"
grep -q "manifest: updated\|manifest: notModified" "$B/install-v1.out" || true
serve_to v2
cp -a "$B/store-v1" "$B/store-g1"
counted g1-static "$B/nginx/static.log" client_static "$B/store-g1"
serve_to v2same
counted g2-static "$B/nginx/static.log" client_static "$B/store-g1"
serve_to v11
cp -a "$B/store-v1" "$B/store-g3"
counted g3-static "$B/nginx/static.log" client_static "$B/store-g3"
serve_to v12
cp -a "$B/store-v1" "$B/store-g3old"
counted g3old-static "$B/nginx/static.log" client_static "$B/store-g3old"

# zsync of each changed .tsb (v1 → v2, this device's class), over the same nginx.
python3 - "$B" "$DEVICE" "$TAGS" "$TESSERA" > "$B/zsync-pairs" <<'PY'
import json, subprocess, sys
b, device, tags, tessera = sys.argv[1:5]
def held(name):
    answer = json.loads(subprocess.run([tessera, "query", f"{b}/manifests/{name}.json", "--device", device, "--tags", tags,
                                        "--json"], check=True, capture_output=True, text=True).stdout)
    manifest = json.load(open(f"{b}/manifests/{name}.json"))
    packs = {item["pack"] for item in answer["bundles"]}
    return {x["pack"]: x for x in manifest["bundles"] if x["pack"] in packs and x["device"] == answer["device"]}
old, new = held("v1"), held("v2")
for pack, bundle in sorted(new.items()):
    if pack in old and old[pack]["sha256"] != bundle["sha256"]:
        print(old[pack]["path"], bundle["path"])
PY
ZSYNC_NOTE=""
if command -v zsyncmake > /dev/null && command -v zsync > /dev/null; then
    serve_to v2
    n=0
    while read -r old new; do
        n=$((n + 1))
        (cd "$B/www/zsync" && zsyncmake -u "$STATIC/$new" -o "$n.zsync" "$B/v2/$new" > /dev/null)
        cp "$B/v1/$old" "$B/zsync-old-$n.tsb"
        counted "zsync-$n" "$B/nginx/static.log" sh -c "cd '$B' && rm -f zsync-new-$n.tsb && zsync -q -i zsync-old-$n.tsb -o zsync-new-$n.tsb 'http://127.0.0.1:$SPORT/zsync/$n.zsync'"
        cmp "$B/zsync-new-$n.tsb" "$B/v2/$new"
    done < "$B/zsync-pairs"
else
    ZSYNC_NOTE="zsync/zsyncmake not installed (Debian package zsync): no zsync row"
fi

# ---- G4: time and memory of the v1 → v2 update against a no-op refresh ------------------------
serve_to v2
for run in $(seq 1 "$RUNS"); do
    rm -rf "$B/store-g4" && cp -a "$B/store-v1" "$B/store-g4"
    /usr/bin/time -v -o "$B/g4-update-$run.time" "$CLIENT_DEMO" --server "$STATIC" --device "$DEVICE" --tags "$TAGS" \
        --store "$B/store-g4" > "$B/g4-update-$run.out"
    grep -q "^manifest: updated" "$B/g4-update-$run.out" || { echo "G4 run $run did not update:"; head -3 "$B/g4-update-$run.out"; exit 1; }
    /usr/bin/time -v -o "$B/g4-noop-$run.time" "$CLIENT_DEMO" --server "$STATIC" --device "$DEVICE" --tags "$TAGS" \
        --store "$B/store-g4" > "$B/g4-noop-$run.out"
    grep -q "^manifest: notModified" "$B/g4-noop-$run.out" || { echo "G4 no-op run $run changed:"; head -3 "$B/g4-noop-$run.out"; exit 1; }
done

# ---- tessera serve: v1, v2 and v2' published to a channel, the device behind a counting proxy --
publish() { "$TESSERA" publish "$B/$1" --server "http://127.0.0.1:$TPORT" --token-file "$B/token" --channel bench > "$B/publish-$1.log" 2>&1 \
    || { tail -5 "$B/publish-$1.log"; exit 1; }; }
publish v1
counted install-serve "$B/nginx/proxy.log" client_serve "$B/store-serve"
publish v2
counted g1-serve "$B/nginx/proxy.log" client_serve "$B/store-serve"
publish v2same
counted g2-serve "$B/nginx/proxy.log" client_serve "$B/store-serve"

# ---- the table ----------------------------------------------------------------------------------
python3 - "$B" "$DEVICE" "$TAGS" "$TESSERA" "$COUNT" "$RUNS" "$LOAD_BEFORE" "$ZSYNC_NOTE" <<'PY'
import json, lzma, os, re, statistics, subprocess, sys
b, device, tags, tessera, count, runs, load_before, zsync_note = sys.argv[1:9]
runs = int(runs)
counted = {line.split()[0]: (int(line.split()[1]), int(line.split()[2])) for line in open(f"{b}/counted.tsv")}
manifests = {}
def manifest(name):
    if name not in manifests:
        manifests[name] = json.load(open(f"{b}/manifests/{name}.json"))
    return manifests[name]
def held(name):
    """The device's bundles (every tag), by pack, in build `name`."""
    answer = json.loads(subprocess.run([tessera, "query", f"{b}/manifests/{name}.json", "--device", device, "--tags", tags, "--json"],
                                       check=True, capture_output=True, text=True).stdout)
    packs = {item["pack"] for item in answer["bundles"]}
    return {x["pack"]: x for x in manifest(name)["bundles"] if x["pack"] in packs and x["device"] == answer["device"]}
def entry_objects(name):
    m = manifest(name)
    objects = {o["sha256"]: o for o in m.get("objects", [])}
    def entry(path, folder):
        return folder + "/" + (path[len("variants/"):] if path.startswith("variants/") else path)
    files = {}
    for asset in m["assets"]:
        for v in asset["variants"]:
            files[entry(v["path"], "assets")] = v["sha256"]
            if v.get("readyBitmap"):
                files[entry(v["readyBitmap"]["path"], "bitmaps")] = v["readyBitmap"]["sha256"]
        if asset.get("vector"):
            files[entry(asset["vector"]["path"], "assets")] = asset["vector"]["sha256"]
    for item in m.get("data", []):
        files[item["path"]] = item["sha256"]
    return files, objects
def p_bytes(old, new):
    """P: transfer bytes of the entries of the device's changed bundles that none of its old bundles holds."""
    old_files, _ = entry_objects(old)
    new_files, objects = entry_objects(new)
    before, after = held(old), held(new)
    had = {old_files[e] for x in before.values() for e in x.get("entries", []) if e in old_files}
    missing, changed = set(), []
    for pack, bundle in after.items():
        if before.get(pack, {}).get("sha256") != bundle["sha256"]:
            changed.append(bundle)
            missing |= {new_files[e] for e in bundle.get("entries", []) if new_files.get(e) not in had}
    return sum(objects[s]["transferBytes"] for s in missing), changed
KiB = 1024
def row(label, d, target, note=""):
    print(f"{label:<50}{d:>12,}{target:>12,}{d / target:>8.3f}  {'pass' if d <= target else 'FAIL'}  {note}")

m2 = manifest("v2")
classes = len(m2.get("deviceClasses", []) or {x['device'] for x in m2['bundles']})
bundles_held = len(held("v1"))
print(f"updates, {count} image sets ({sum(len(a['variants']) for a in m2['assets'])} variants, {len(m2['packs'])} packs, "
      f"{len({x['device'] for x in m2['bundles']})} device classes, {len(m2['bundles'])} bundles); device {device} holds "
      f"{bundles_held} bundles ({sum(x['bytes'] for x in held('v1').values()):,} bytes); manifest.json {os.path.getsize(f'{b}/manifests/v2.json'):,} bytes")
print("builds (s): " + ", ".join(f"{n} {float(open(f'{b}/{n}.time').read()):.1f}" for n in ["v1", "v2", "v2same"] + [f"v{k}" for k in range(3, 13)]))
print()
p1, changed = p_bytes("v1", "v2")
whole = sum(x["bytes"] for x in changed) + os.path.getsize(f"{b}/manifests/v2.json")
whole_xz = sum(x["bytes"] for x in changed) + os.path.getsize(f"{b}/v2/manifest.json.xz")
g1_target = int(1.10 * p1 + 16 * KiB)
print(f"{'update (bytes the device receives, heads included)':<50}{'D':>12}{'target':>12}{'ratio':>8}")
print(f"G1 one image changed: P = {p1:,} bytes ({len(changed)} changed bundle(s)); target 1.10 × P + 16 KiB")
for host in ("static", "serve"):
    d, n = counted[f"g1-{host}"]
    row(f"  v1 → v2, {'nginx, output folder' if host == 'static' else 'tessera serve channel'} ({n} requests)", d, g1_target,
        f"D/P {d / p1:.2f}")
d_static = counted["g1-static"][0]
print(f"  {'whole-bundle path (changed .tsb + manifest.json)':<48}{whole:>12,}{'':>12}{whole / d_static:>8.1f}× D(nginx)")
print(f"  {'whole-bundle path (changed .tsb + manifest.json.xz)':<48}{whole_xz:>12,}{'':>12}{whole_xz / d_static:>8.1f}× D(nginx)")
zs = [v for k, v in counted.items() if k.startswith("zsync-")]
if zs:
    zd, zn = sum(v[0] for v in zs), sum(v[1] for v in zs)
    print(f"  {f'zsync of the changed .tsb, nginx ({zn} requests)':<48}{zd:>12,}{'':>12}{zd / d_static:>8.1f}× D(nginx)  (no manifest: add the patch for a whole update)")
else:
    print(f"  zsync: {zsync_note}")
print(f"G2 nothing changed for the device: target 4 KiB")
for host in ("static", "serve"):
    d, n = counted[f"g2-{host}"]
    row(f"  v2 → v2', {'nginx' if host == 'static' else 'tessera serve'} ({n} requests)", d, 4 * KiB)
# P summed over the builds between: each build's P against the one before (manifests kept).
ps = [p_bytes("v1" if k == 2 else f"v{k - 1}", f"v{k}")[0] for k in range(2, 13)]
p10, p11 = sum(ps[:10]), sum(ps)
xz12 = os.path.getsize(f"{b}/v12/manifest.json.xz")
print(f"G3 several builds behind (one image changed a build), nginx")
d, n = counted["g3-static"]
row(f"  v1 → v11, 10 behind ({n} requests), P summed {p10:,}", d, int(1.10 * p10 + 16 * KiB), f"D/P {d / p10:.2f}")
d, n = counted["g3old-static"]
row(f"  v1 → v12, 11 behind ({n} requests), P {p11:,} + xz {xz12:,}", d, int(1.10 * (p11 + xz12) + 16 * KiB),
    f"D/(P+xz) {d / (p11 + xz12):.2f}")
def timed(name):
    text = open(f"{b}/{name}.time").read()
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", text).group(1).split(":")
    seconds = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall)))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1)) / 1024
    return seconds, rss
def access(name):
    return float(re.search(r"^access: ([0-9.]+) s", open(f"{b}/{name}.out").read(), re.M).group(1))
up = [timed(f"g4-update-{r}") + (access(f"g4-update-{r}"),) for r in range(1, runs + 1)]
noop = [timed(f"g4-noop-{r}") + (access(f"g4-noop-{r}"),) for r in range(1, runs + 1)]
med = lambda rows, i: statistics.median(x[i] for x in rows)
spread = lambda rows, i: f"{min(x[i] for x in rows):.3f}–{max(x[i] for x in rows):.3f}"
ua, na, uw, nw, ur, nr = med(up, 2), med(noop, 2), med(up, 0), med(noop, 0), med(up, 1), med(noop, 1)
print(f"G4 applying the G1 update (client-demo, median of {runs}, each from a copy of the v1 store; no-op: that store refreshed again)")
print(f"  {'refresh + update (in process)':<34}{ua:>8.3f} s   no-op {na:.3f} s   target 1 s: ratio {ua:.2f}  {'pass' if ua <= 1 else 'FAIL'}   spread {spread(up, 2)} s")
print(f"  {'process wall (start to exit)':<34}{uw:>8.3f} s   no-op {nw:.3f} s   extra {uw - nw:+.3f} s   spread {spread(up, 0)} s")
print(f"  {'peak RSS':<34}{ur:>8.1f} MB  no-op {nr:.1f} MB  extra {ur - nr:+.1f} MB, target 64 MB: {'pass' if ur - nr <= 64 else 'FAIL'}")
print(f"installs (not targets): v1 from nginx {counted['install-v1'][0]:,} bytes, from tessera serve {counted['install-serve'][0]:,} bytes")
print(f"load average before {load_before}, after {open('/proc/loadavg').read().split()[0]}")
PY
echo "peers: $(/usr/sbin/nginx -v 2>&1), $(zsync -V 2>/dev/null | head -1 || echo 'no zsync')"
