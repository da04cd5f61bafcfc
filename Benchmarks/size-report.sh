#!/usr/bin/env bash
# Size report benchmark (issue 27): a generated catalog of COUNT image sets (default 5,000; two
# thirds in tagged on-demand packs) built twice with Pipelines/app-thinning.yml (one Apple pack ID per pack), the second time
# with 50 sets changed, 25 removed and 25 added; then, RUNS times (default 3):
#   report      tessera report AFTER --against BEFORE: all four files, thumbnails included
# and the page opened once in headless Chromium (Tests/Browser/open_page.py): time to the load
# event and to show the next page of assets.
# The issue's targets are the peers: written in at most 1 s, a page of at most 5 MB. Prints the
# median, the spread and the ratios (< 1 is within the target).
#
#   Benchmarks/size-report.sh [COUNT]
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT="${1:-5000}"
RUNS="${RUNS:-3}"
. Benchmarks/lib/prepare.sh
B="$WORK/size-report"
rm -rf "$B"
mkdir -p "$B/before" "$B/after"
B="$(cd "$B" && pwd)"
LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)
python3 Benchmarks/lib/make_catalog.py "$B/before/Bench.xcassets" "$COUNT"
cp -r "$B/before/Bench.xcassets" "$B/after/"
python3 Benchmarks/lib/make_catalog.py "$B/after/Bench.xcassets" "$COUNT" --change
export TESSERA_CACHE_DIR="$B/cache"
# The shipped pipeline with one pack ID per pack for Apple (`apple-pack-ids: universal`): the
# second build's 51 tag packs per device group would pass Apple's 100 managed pack IDs, which
# Tessera refuses, and the report, not the packs, is measured here.
sed 's/^  pack: .*$/  pack:\n    apple-pack-ids: universal/' Pipelines/app-thinning.yml > "$B/pipeline.yml"
for build in before after; do
    /usr/bin/time -f "%e" -o "$B/$build.time" "$TESSERA" run "$B/pipeline.yml" --input "$B/$build" \
        --output "$B/out-$build" > "$B/$build.log" 2>&1 || { tail -5 "$B/$build.log"; exit 1; }
done
for run in $(seq 1 "$RUNS"); do
    /usr/bin/time -f "%e %M" -o "$B/report-$run.time" "$TESSERA" report "$B/out-after" --against "$B/out-before" \
        --output "$B/report-$run" > "$B/report-$run.log" 2>&1 || { tail -5 "$B/report-$run.log"; exit 1; }
done
python3 Tests/Browser/open_page.py "$B/report-1/size-report.html" \
    --eval "load=performance.getEntriesByType('navigation')[0].loadEventEnd" \
    --eval "next=(() => { const t = performance.now(); document.querySelectorAll('#device-view nav.pager')[1].querySelectorAll('button')[1].click(); return performance.now() - t; })()" \
    --eval "rows=document.querySelectorAll('#device-view table')[1].tBodies[0].rows.length" > "$B/open.json"
python3 - "$B" "$RUNS" "$COUNT" "$LOAD_BEFORE" <<'PY'
import json, os, statistics, sys
folder, runs, count, load_before = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
times = [tuple(map(float, open(f"{folder}/report-{r}.time").read().split())) for r in range(1, runs + 1)]
walls = [t[0] for t in times]
rss = max(t[1] for t in times) / 1024
html = os.path.getsize(f"{folder}/report-1/size-report.html")
identical = all(open(f"{folder}/report-{r}/size-report.html", "rb").read() == open(f"{folder}/report-1/size-report.html", "rb").read()
                for r in range(2, runs + 1))
page = open(f"{folder}/report-1/size-report.html").read()
opened = json.load(open(f"{folder}/open.json"))
manifest = json.load(open(f"{folder}/out-after/manifest.json"))
builds = {b: float(open(f"{folder}/{b}.time").read()) for b in ("before", "after")}
median = statistics.median(walls)
print(f"size report, {count} image sets ({sum(len(a['variants']) for a in manifest['assets'])} variants, "
      f"{len(manifest['deviceClasses'])} device classes, {len(manifest['bundles'])} bundles); builds took "
      f"{builds['before']:.1f} s and {builds['after']:.1f} s")
print(f"{'measure':<34}{'Tessera':>12}{'target':>10}{'ratio':>8}")
print(f"{'report wall (median of ' + str(runs) + ')':<34}{median:>10.2f} s{1.0:>8.1f} s{median / 1.0:>8.2f}   spread {min(walls):.2f}–{max(walls):.2f} s")
print(f"{'size-report.html':<34}{html / 1e6:>9.2f} MB{5.0:>7.1f} MB{html / 5e6:>8.2f}")
print(f"{'peak RSS':<34}{rss:>9.1f} MB")
print(f"{'thumbnails':<34}{page.count('data:image/webp;base64,'):>12}")
print(f"{'Chromium: load event':<34}{opened['evals']['load']:>9.0f} ms")
print(f"{'Chromium: next page of assets':<34}{opened['evals']['next']:>9.1f} ms   ({opened['evals']['rows']} rows a page)")
print(f"console messages {len(opened['console'])}, requests {len(opened['requests'])}, pictures decoded "
      f"{sum(i['decoded'] for i in opened['images'])}/{len(opened['images'])}; pages byte-identical across runs: {identical}")
print(f"load average before {load_before}, after {open('/proc/loadavg').read().split()[0]}")
PY
