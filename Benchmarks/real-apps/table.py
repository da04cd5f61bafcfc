#!/usr/bin/env python3
"""Print the RESULTS.md table from results/*.json and logs/*.time* (median of the timed runs)."""
import glob, json, os, re, statistics

R = "/work/realapps"
APPS = [
    ("mastodon-root", "mastodon-ios", "repo root (5 catalogs)"),
    ("mastodon-catalog", "mastodon-ios", "`MastodonSDK/Sources/MastodonAsset/Assets.xcassets`"),
    ("swiftfin", "Swiftfin", "repo root (iOS + tvOS catalogs)"),
    ("newpipe", "NewPipe", "`app/src/main/res`"),
    ("netnewswire", "NetNewsWire", "repo root (Mac, iOS, Widget catalogs)"),
    ("pocketcasts", "pocket-casts-ios", "`podcasts/` (32 catalogs)"),
]


def times(app, which):
    walls, rss = [], []
    for f in glob.glob(f"{R}/logs/{app}-{which}.time*"):
        t = open(f).read()
        m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", t)
        walls.append(int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 + float(m.group(3)))
        rss.append(int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024)
    return statistics.median(walls), statistics.median(rss), len(walls)


def mb(n):
    return f"{n / 1e6:.2f} MB" if n >= 1e5 else f"{n / 1e3:.0f} kB"


print("| app | input | sets in | assets out (images + data) before / after | silently dropped before / after "
      "| named in warnings/errors before / after (report entries W/E) | errors before / after "
      "| exit before / after | base-pack bytes per device, before → after | wall s before / after (median) "
      "| peak RSS MB before / after (median) |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for app, name, inp in APPS:
    b = json.load(open(f"{R}/results/{app}-before.json"))
    a = json.load(open(f"{R}/results/{app}-after.json"))
    devs = list(a["base_bytes"])
    base = "<br>".join(
        f"{d}: {mb(b['base_bytes'][d]) if d in b.get('base_bytes', {}) else 'n/a'} → {mb(a['base_bytes'][d])}"
        for d in devs)
    tb, ta = times(app, "before"), times(app, "after")
    k = a["sets_by_kind"]
    kinds = (f"{k['bitmap']} with bitmaps, {k['xml-only']} XML-only; {k['files']} files" if "bitmap" in k
             else ", ".join(f"{v} {n}" for n, v in k.items()))
    print(f"| {name} | {inp} | {a['sets_in']} ({kinds}) "
          f"| {b['assets_out']} ({b['assets_images']}+{b['assets_data']}) / {a['assets_out']} ({a['assets_images']}+{a['assets_data']}) "
          f"| **{len(b['dropped'])} / {len(a['dropped'])}** "
          f"| {b['named']} / {a['named']} (W{b['warnings']} E{b['failures']} / W{a['warnings']} E{a['failures']}) "
          f"| {b['failures']} / {a['failures']} | {b['exit']} / {a['exit']} | {base} "
          f"| {tb[0]:.2f} / {ta[0]:.2f} | {tb[1]:.0f} / {ta[1]:.0f} |")
