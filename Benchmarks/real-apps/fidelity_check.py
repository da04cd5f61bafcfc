#!/usr/bin/env python3
"""Issue 37's fidelity measurements on real apps: what Tessera ships per device against what
Xcode / the App Store / Google Play would ship.

  fidelity_check.py runs                           one line per run: APP RUN KIND INPUT (for fidelity.sh)
  fidelity_check.py pipeline APP RUN WHICH         the pipeline YAML for that run (WHICH = before | after:
                                                   `before` gets the same file minus `app:` and the targets'
                                                   build-setting keys, which that binary does not read)
  fidelity_check.py check APP RUN OUT LOG TIMEFILE one JSON object: counts, discrepancy classes, examples
  fidelity_check.py table BEFORE_DIR AFTER_DIR     the Markdown table (before -> after)

Inputs are under $REALAPPS (default /work/realapps), extracted there by its tools/extract.py; apps'
targets and build settings below are those of /work/realapps/APPS.md.

How a device "gets" an input file: a manifest variant whose `source` is that file is listed in the
device's slices/<device>.json (with a path) or is an entry of one of the device's bundles
(`assets/X` <-> `variants/X`); a data file (`data/...`) is an entry of one of its bundles; anything
under the manifest's `app[]` (the files the app target compiles itself, `app/<input path>`) counts as
shipped to every device (the app bundle).

Discrepancy classes (issue 37), each counted in input files or sets as named:
  c1_rtl       right-to-left image-set entries (and Android *-ldrtl* files) a device that gets the set
               does not get (run-time trait: every device keeps both directions)
  c2_contrast  contrast-high entries (image sets: files; colour sets: entries of the delivered
               Contents.json) a device that gets the set does not get
  c3_mac1x     1x entries (idiom universal/mac) of image and app icon sets, and .iconset 1x members,
               a Mac that gets the set does not get
  c4_mipmap    (device, mipmap file) pairs missing: Play ships every mipmap density to every device
  c5_iconcomposer  files inside *.icon bundles built as loose image assets, plus .icon bundles that
               should ship (primary / alternate / include-all) and are not in app[]
  c6_icon_in_pack  distinct app icon / .iconset / .icon / complication / launch image files, and
               Android mipmap and XML drawable files, inside any bundle, Apple asset pack or Play pack
  c7_extra_icons   app icon sets (.appiconset, .icon) shipped that are neither the target's primary
               nor an alternate (nor include-all)
  c8_ipad_idiom    for a target whose device family has no iPad: distinct files of ipad-idiom entries
               an iPad class gets
  c10_pdf_unrasterised  distinct .pdf files in bundles/asset packs whose asset does not preserve its
               vector representation
"""
import glob, json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402  (same folder: set discovery, name rule, helpers)

R = os.environ.get("REALAPPS", "/work/realapps")

IOS = ["iPhone18,2", "iPhone14,5", "iPhone12,8", "iPad17,1", "iPad12,1"]
IPHONES = ["iPhone18,2", "iPhone14,5", "iPhone12,8"]
MAC = ["Mac16,12"]
WATCH = ["Watch7,9", "Watch6,1"]
VISION = ["RealityDevice14,1"]
ANDROID = ["android-ldpi", "android-mdpi", "android-hdpi", "android-xhdpi", "android-xxhdpi", "android-xxxhdpi"]
NO_ICON = "NoAppIconSet"  # a target whose Xcode settings name no app icon (no such set exists)

# app -> kind, settings (the main app target's), runs {run: input relative to $R}, devices,
# optional per-run targets [{name, input (relative to the run's input), devices, settings}],
# optional per-run `ignore` (paths relative to the run input that no Xcode target compiles).
APPS = {
    "iina": dict(kind="apple", devices=MAC,
                 settings={"app-icon": "AppIcon", "device-family": ["mac"]},
                 runs={"catalog": "iina/iina/Assets.xcassets", "parent": "iina/iina"}),
    "homeAssistant": dict(
        kind="apple", devices=IOS + MAC,
        settings={"app-icon": "AppIcon", "include-all-app-icons": True, "device-family": [1, 2, 6]},
        runs={"catalog": "homeAssistant/Sources/App/Resources/Assets.xcassets",
              "parent": "homeAssistant/Sources/App/Resources",
              "root": "homeAssistant"},
        targets={"root": [
            {"name": "Shared", "input": "Sources/Shared/Assets", "devices": IOS + MAC + WATCH,
             "settings": {"app-icon": NO_ICON, "include-all-app-icons": False, "device-family": [1, 2, 4, 6]}},
            {"name": "WatchApp", "input": "Sources/WatchApp/Assets.xcassets", "devices": WATCH,
             "settings": {"app-icon": "WatchIcon", "include-all-app-icons": False, "device-family": ["watch"]}},
            {"name": "WatchWidgets", "input": "Sources/WatchWidgets/Assets.xcassets", "devices": WATCH,
             "settings": {"app-icon": NO_ICON, "include-all-app-icons": False, "device-family": ["watch"]}},
            {"name": "Widgets", "input": "Sources/Extensions/Widgets/Resources/Assets.xcassets", "devices": IOS,
             "settings": {"app-icon": NO_ICON, "include-all-app-icons": False, "device-family": [1, 2]}},
        ]},
        ignore={"root": ["WatchApp/Assets.xcassets"]}),
    "cwa": dict(kind="apple", devices=IOS,
                settings={"app-icon": "AppIcon", "device-family": [1]},
                runs={"catalog": "cwa/src/xcode/ENA/ENA/Resources/Assets/Assets.xcassets",
                      "parent": "cwa/src/xcode/ENA/ENA/Resources/Assets"}),
    "duckduckgo": dict(
        kind="apple", devices=IOS,
        settings={"app-icon": "AppIcon", "include-all-app-icons": True, "device-family": [1, 2],
                  "alternate-app-icons": ["AppIcon-Yellow", "AppIcon-Blue", "AppIcon-Purple", "AppIcon-Green",
                                          "AppIcon-Black"]},
        runs={"catalog": "duckduckgo/DuckDuckGo/Assets.xcassets", "parent": "duckduckgo/DuckDuckGo"}),
    "iceCubes": dict(
        kind="apple", devices=IOS + VISION,
        settings={"app-icon": "AppIcon", "include-all-app-icons": True, "device-family": [1, 2, 7]},
        runs={"catalog": "iceCubes/IceCubesApp/Assets.xcassets", "parent": "iceCubes/IceCubesApp",
              "root": "iceCubes"},
        targets={"root": [
            {"name": "Action", "input": "IceCubesActionExtension/Assets.xcassets", "devices": IOS,
             "settings": {"app-icon": "ActionIcon", "include-all-app-icons": False, "device-family": [1, 2]}},
            {"name": "Widgets", "input": "IceCubesAppWidgetsExtension/Assets.xcassets", "devices": IOS,
             "settings": {"app-icon": NO_ICON, "include-all-app-icons": False, "device-family": [1, 2]}},
        ]},
        ignore={"parent": ["Resources/Preview Assets.xcassets"], "root": ["IceCubesApp/Resources/Preview Assets.xcassets"]}),
    "openhab": dict(
        kind="apple", devices=WATCH,
        settings={"app-icon": "AppIcon", "device-family": ["watch"]},
        runs={"catalog": "openhab/openHABWatch/Assets.xcassets", "parent": "openhab/openHABWatch",
              "root": "openhab"},
        root_devices=IOS, root_settings={"app-icon": "AppIcon", "device-family": [1, 2]},
        targets={"root": [
            {"name": "Watch", "input": "openHABWatch/Assets.xcassets", "devices": WATCH,
             "settings": {"app-icon": "AppIcon", "device-family": ["watch"]}},
            {"name": "WatchExtension", "input": "openHABWatch Extension/Assets.xcassets", "devices": WATCH,
             "settings": {"app-icon": NO_ICON, "include-all-app-icons": False, "device-family": ["watch"]}},
        ]},
        ignore={"root": ["openHABWatch Extension/openHABWatch Extension"]}),
    "wikipediaAndroid": dict(kind="android", devices=ANDROID, settings={},
                             runs={"catalog": "wikipediaAndroid/app/src/main/res",
                                   "parent": "wikipediaAndroid/app/src/main"}),
    "oppiaAndroid": dict(kind="android", devices=ANDROID, settings={},
                         runs={"catalog": "oppiaAndroid/app/src/main/res", "parent": "oppiaAndroid/app/src/main"}),
}


def run_spec(app, run):
    a = APPS[app]
    devices = a.get("root_devices", a["devices"]) if run == "root" else a["devices"]
    settings = a.get("root_settings", a["settings"]) if run == "root" else a["settings"]
    return dict(kind=a["kind"], input=os.path.join(R, a["runs"][run]), devices=devices, settings=settings,
                targets=a.get("targets", {}).get(run, []), ignore=a.get("ignore", {}).get(run, []))


# ---------------------------------------------------------------------------------------------
# pipeline files

def yq(s):
    return json.dumps(s)


def ylist(xs):
    return "[" + ", ".join(yq(x) if isinstance(x, str) else str(x) for x in xs) + "]"


def settings_yaml(settings, indent):
    out = []
    for k, v in settings.items():
        if isinstance(v, bool):
            out.append(f"{indent}{k}: {'true' if v else 'false'}")
        elif isinstance(v, list):
            out.append(f"{indent}{k}: {ylist(v)}")
        else:
            out.append(f"{indent}{k}: {yq(v)}")
    return out


def pipeline(app, run, which):
    s = run_spec(app, run)
    after = which == "after"
    L = ["# written by Benchmarks/real-apps/fidelity_check.py (issue 37 fidelity runs)", "version: 1",
         f"name: fidelity-{app}-{run}"]
    if after and s["settings"]:
        L.append("app:")
        L += settings_yaml(s["settings"], "  ")
    if s["targets"]:
        L.append("targets:")
        for t in s["targets"]:
            L.append(f"  - name: {yq(t['name'])}")
            L.append(f"    input: {yq(t['input'])}")
            L.append(f"    devices: {ylist(t['devices'])}")
            if after:
                L += settings_yaml(t.get("settings", {}), "    ")
    L.append("stages:")
    if s["kind"] == "apple":
        L += ["  decode:", "    max-pixels: 268435456",
              "  variants:", "    scales: [1x, 2x, 3x]", "    unsuffixed-scale: 1x",
              "  rasterize:", "    render-seconds: 10", "    max-file-size: 16MiB",
              "  downscale:", "    filter: lanczos3",
              "  encode:", "    png-effort: default", "    jpeg-quality: 90", "    jpeg-progressive: false",
              '    jpeg-chroma: "4:2:0"', "    webp-quality: 80",
              "  timing:", "    clamp: browser", "    max-slots: 1000",
              "  slice:", f"    devices: {ylist(s['devices'])}",
              "  pack:", "    initial-install: []", "    prefetch-order: []", '    base-url: ""',
              "    compress: auto", '    min-saving: "0.05"', "    pack-limit: 512MB",
              "  manifest:", "    file: manifest.json"]
    else:
        L += ["  decode:", "    max-pixels: 268435456", "  downscale:", "    filter: lanczos3",
              "  encode:", "    png-effort: default",
              "  slice:", f"    devices: {ylist(s['devices'])}",
              "  pack:", "    initial-install: []", "    compress: auto",
              "  manifest:", "    file: manifest.json"]
    return "\n".join(L) + "\n"


# ---------------------------------------------------------------------------------------------
# input model

def load(p):
    try:
        with open(p) as f:
            return json.load(f)
    except (OSError, ValueError):
        try:  # Contents.json with a trailing comma (duckduckgoMac)
            with open(p) as f:
                return json.loads(re.sub(r",(\s*[\]}])", r"\1", f.read()))
        except (OSError, ValueError):
            return None


def ext(n):
    return measure.ext(n)


def icon_bundles(root):
    out = []
    for d, dirs, _ in os.walk(root):
        dirs.sort()
        for n in list(dirs):
            if n.endswith(".icon") and os.path.exists(os.path.join(d, n, "icon.json")):
                out.append(os.path.relpath(os.path.join(d, n), root))
    return out


def set_entries(root, rel):
    """Input entries of one set: dicts with file (relative to root), idiom, scale, rtl, contrast."""
    folder = os.path.join(root, rel)
    out = []
    if ext(rel) == "iconset":
        for f in sorted(os.listdir(folder)):
            if f.startswith(".") or not f.lower().endswith(".png"):
                continue
            out.append(dict(file=f"{rel}/{f}", idiom="mac", scale="2x" if "@2x" in f else "1x", rtl=False,
                            contrast=False, platform=None))
        return out
    cj = load(os.path.join(folder, "Contents.json")) or {}
    for e in cj.get("images", []):
        fn = e.get("filename")
        if not fn or not os.path.exists(os.path.join(folder, fn)):
            continue
        apps = e.get("appearances", []) or []
        out.append(dict(file=f"{rel}/{fn}", idiom=e.get("idiom", "universal"), scale=e.get("scale"),
                        rtl=e.get("language-direction") == "right-to-left",
                        contrast=any(a.get("appearance") == "contrast" and a.get("value") == "high" for a in apps),
                        platform=e.get("platform")))
    return out


def color_contrast_count(cj):
    n = 0
    for c in (cj or {}).get("colors", []):
        if any(a.get("appearance") == "contrast" and a.get("value") == "high" for a in c.get("appearances", []) or []):
            n += 1
    return n


def under(path, prefix):
    return prefix in ("", ".") or path == prefix or path.startswith(prefix.rstrip("/") + "/")


def icon_set_name(rel):
    return measure.stem(os.path.basename(rel))


# ---------------------------------------------------------------------------------------------
# check

def parse_time(tf):
    t = open(tf).read() if os.path.exists(tf) else ""
    row = {}
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", t)
    if m:
        row["wall_s"] = round(int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 + float(m.group(3)), 2)
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", t)
    if m:
        row["rss_mb"] = round(int(m.group(1)) / 1024, 1)
    m = re.search(r"Exit status: (\d+)", t)
    row["exit"] = int(m.group(1)) if m else None
    m = re.search(r"Command terminated by signal (\d+)", t)
    if m:
        row["signal"] = int(m.group(1))
    return row


def check(app, run, out, log, timefile):
    s = run_spec(app, run)
    inp = s["input"]
    kind = s["kind"]
    row = {"app": app, "run": run, "kind": kind, "input": inp, "out": out}
    row.update(parse_time(timefile))
    manifest = load(os.path.join(out, "manifest.json"))
    report = load(os.path.join(out, "report.json")) or {}
    row["has_manifest"] = manifest is not None
    m = manifest or {}
    assets, data, appfiles = m.get("assets", []), m.get("data", []), m.get("app", []) or []
    row["assets_out"] = len(assets) + len(data) if manifest is not None else None
    row["assets_images"], row["assets_data"], row["app_files"] = len(assets), len(data), len(appfiles)
    row["app_bytes"] = sum(a.get("bytes", 0) for a in appfiles)
    failures, warnings = report.get("failures", []), report.get("warnings", [])
    row["failures"], row["warnings"] = len(failures), len(warnings)
    ignore = s["ignore"]

    def ignored(rel):
        return any(under(rel, i) for i in ignore)

    # ---- output model
    variant = {}  # variant path -> (asset, variant)
    for a in assets:
        for v in a.get("variants", []):
            variant[v["path"]] = (a, v)
        if a.get("vector", {}).get("path"):
            variant[a["vector"]["path"]] = (a, dict(a["vector"]))
    data_paths = {d["path"] for d in data}
    app_src = set()
    for f in appfiles:
        p = f.get("path", "")
        app_src.add(p[4:] if p.startswith("app/") else p)
    devices = [d.get("id") for d in m.get("deviceClasses", [])]
    dev_info = {d.get("id"): d for d in m.get("deviceClasses", [])}
    got_paths = {d: set() for d in devices}  # output paths (variants/..., data/...) a device gets
    slice_traits = {}  # (device, path) -> traits
    for d in devices:
        sl = load(os.path.join(out, "slices", f"{d}.json")) or {}
        for e in sl.get("assets", []):
            if e.get("path"):
                got_paths[d].add(e["path"])
                slice_traits[(d, e["path"])] = e.get("traits", {})
    pack_files = {}  # output path -> [where]
    base = {p["id"] for p in m.get("packs", []) if not p.get("tags")}
    base_bytes = {}

    def entry_path(e):
        if e.startswith("assets/"):
            return "variants/" + e[len("assets/"):]
        return e

    for b in m.get("bundles", []):
        d = b.get("device")
        for e in b.get("entries", []):
            p = entry_path(e)
            got_paths.setdefault(d, set()).add(p)
            pack_files.setdefault(p, set()).add(f"bundle {b.get('pack')} ({d})")
        if b.get("pack") in base:
            base_bytes[d] = base_bytes.get(d, 0) + b.get("bytes", 0)
    for f in glob.glob(os.path.join(out, "apple", "asset-packs", "*.json")):
        for sel in (load(f) or {}).get("fileSelectors", []):
            if sel.get("file"):
                pack_files.setdefault(sel["file"], set()).add("apple pack " + os.path.basename(f))
    for f in glob.glob(os.path.join(out, "android", "asset-packs", "**", "*"), recursive=True):
        if os.path.isfile(f):
            rel = os.path.relpath(f, os.path.join(out, "android", "asset-packs"))
            mm = re.search(r"src/main/assets/(.*)$", rel)
            if mm:
                pack_files.setdefault("play:" + mm.group(1), set()).add("play pack " + rel.split("/")[0])
    row["base_bytes"] = base_bytes
    row["devices"] = devices

    def sources_of(paths):
        out_ = set()
        for p in paths:
            if p in variant:
                src = variant[p][1].get("source")
                if src:
                    out_.add(src)
            elif p.startswith("data/"):
                out_.add("data:" + p[5:])
        return out_

    got_src = {d: sources_of(ps) for d, ps in got_paths.items()}

    def gets(d, f):
        return f in got_src.get(d, ()) or f in app_src or ("data:" + f) in got_src.get(d, ())

    def gets_any_of(d, rel):
        if any(under(x, rel) for x in app_src):
            return True
        return any(under(x, rel) for x in got_src.get(d, ()))

    problems = failures + warnings

    def relative(f):
        f = (f or "").rstrip("/")
        return f[len(inp) + 1:] if f.startswith(inp + "/") else f

    named_files = [relative(p.get("file")) for p in problems]
    reasons = "\n".join(p.get("reason", "") for p in problems)

    def named(rel):
        for f in named_files:
            if f == rel or f.startswith(rel + "/"):
                return True
            if rel.startswith(f + "/") and f not in ("", ".") and not f.endswith(".xcassets") and not f.endswith("Contents.json"):
                return True
        return rel + "/" in reasons or reasons.endswith(rel) or rel + ";" in reasons or rel + " " in reasons or rel + "'" in reasons

    cls = {k: [] for k in ("c1_rtl", "c2_contrast", "c3_mac1x", "c4_mipmap", "c5_iconcomposer",
                           "c6_icon_in_pack", "c7_extra_icons", "c8_ipad_idiom", "c10_pdf_unrasterised")}

    # ---- settings per set
    app_settings = s["settings"]

    def settings_for(rel):
        best = None
        for t in s["targets"]:
            if under(rel, t["input"]) and (best is None or len(t["input"]) > len(best["input"])):
                best = t
        st = dict(app_settings)
        if best:
            st.update(best.get("settings", {}))
        return st

    def icon_allowed(rel):
        st = settings_for(rel)
        if st.get("include-all-app-icons") and st.get("app-icon") != NO_ICON:
            return True
        names = {st.get("app-icon", "AppIcon").lower()} | {n.lower() for n in st.get("alternate-app-icons", [])}
        return icon_set_name(rel).lower() in names

    def family(rel):
        return [str(x).lower() for x in settings_for(rel).get("device-family", [])]

    if kind == "apple":
        sets = [x for x in measure.apple_sets(inp)]
        icons = icon_bundles(inp)
        sets_all = [x for x in sets + icons if not ignored(x)]
        row["sets_in"] = len(sets_all)
        row["sets_by_kind"] = {}
        for x in sets_all:
            row["sets_by_kind"][ext(x)] = row["sets_by_kind"].get(ext(x), 0) + 1
        catalogs = {x.split(".xcassets/")[0] + ".xcassets" for x in sets if ".xcassets/" in x}
        if inp.endswith(".xcassets"):
            catalogs = {""}
        names = [measure.strip_traits(a["name"]) for a in assets] + [measure.strip_traits(d["name"]) for d in data] \
            + [measure.strip_traits(f["name"]) for f in appfiles]
        exact = {"/".join(n) for n in names}
        by_name = {}
        for n in names:
            by_name.setdefault(n[-1], []).append(n[:-1])
        all_sources = {v.get("source") for _, v in variant.values() if v.get("source")}
        data_rel = {p[5:] for p in data_paths}
        dropped, matched, namedc = [], 0, 0
        for x in sets_all:
            comps = [measure.stem(c) for c in x.split("/")]
            hit = (measure.expected_name(inp, x, catalogs) in exact
                   or any(under(src, x) for src in all_sources)
                   or any(under(a_, x) for a_ in app_src)
                   or any(measure.subsequence(pr, comps[:-1]) for pr in by_name.get(comps[-1], [])))
            nm = named(x)
            matched += hit
            namedc += (nm and not hit)
            if not hit and not nm:
                dropped.append(x)
        row["matched"], row["named_only"], row["dropped"] = matched, namedc, dropped

        macs = [d for d in devices if (dev_info.get(d, {}).get("idiom") == "mac" or d.startswith("Mac"))]
        ipads = [d for d in devices if (dev_info.get(d, {}).get("idiom") == "ipad" or d.startswith("iPad"))]
        entries_by_file = {}
        for x in sets_all:
            e = ext(x)
            if e not in ("imageset", "appiconset", "iconset", "imagestacklayer"):
                continue
            ents = set_entries(inp, x)
            for en in ents:
                entries_by_file[en["file"]] = en
            devs_with = [d for d in devices if gets_any_of(d, x)]
            # (1) right-to-left, (2) contrast-high image entries: a device with the set gets one of them
            for key, flag in (("c1_rtl", "rtl"), ("c2_contrast", "contrast")):
                flagged = [en for en in ents if en[flag]]
                if not flagged:
                    continue
                miss = [d for d in devs_with if not any(gets(d, en["file"]) for en in flagged)]
                if not devs_with:
                    miss = ["(no device)"]
                for en in flagged:
                    if miss:
                        cls[key].append(f"{en['file']} (missing on {', '.join(miss)})")
            # (3) Mac 1x
            for d in macs:
                if not gets_any_of(d, x):
                    continue
                if e == "appiconset" and not icon_allowed(x):
                    continue
                has_mac = any(en["idiom"] == "mac" for en in ents)
                for en in ents:
                    if en["scale"] != "1x" or en["rtl"] or en["contrast"]:
                        continue
                    if en["idiom"] not in ("mac", "universal") or (has_mac and en["idiom"] == "universal" and e == "imageset" and
                                                                    any(o["idiom"] == "mac" and o["scale"] == "1x" for o in ents)):
                        continue
                    if not gets(d, en["file"]):
                        cls["c3_mac1x"].append(f"{en['file']} (not on {d})")
            # (8) iPhone-only target: iPad classes given ipad entries
            fam = family(x)
            if fam and "2" not in fam and "ipad" not in fam:
                for d in ipads:
                    for p in got_paths.get(d, ()):
                        if p in variant and under(variant[p][1].get("source", ""), x):
                            tr = slice_traits.get((d, p), {})
                            en = entries_by_file.get(variant[p][1].get("source"), {})
                            if tr.get("idiom") == "ipad" or (not tr and en.get("idiom") == "ipad"):
                                cls["c8_ipad_idiom"].append(f"{p} (from {variant[p][1].get('source')}, on {d})")
        # (2) contrast-high colour entries
        for x in sets_all:
            if ext(x) != "colorset":
                continue
            want = color_contrast_count(load(os.path.join(inp, x, "Contents.json")))
            if not want or any(under(a_, x) for a_ in app_src):
                continue
            st = measure.stem(os.path.basename(x))
            mine = [d_ for d_ in data if measure.strip_traits(d_["name"])[-1] == st and
                    (measure.expected_name(inp, x, catalogs) == "/".join(measure.strip_traits(d_["name"]))
                     or measure.subsequence(measure.strip_traits(d_["name"])[:-1], [measure.stem(c) for c in x.split("/")][:-1]))]
            if not mine:
                continue
            devs = [d for d in devices if any(d_["path"] in got_paths.get(d, ()) for d_ in mine)]
            if not devs:
                cls["c2_contrast"].append(f"{x} ({want} contrast entries; no device gets the colour set)")
                continue
            for d in devs:
                have = sum(color_contrast_count(load(os.path.join(out, d_["path"]))) for d_ in mine
                           if d_["path"] in got_paths.get(d, ()) and d_["path"].endswith(".json"))
                if have < want:
                    cls["c2_contrast"].append(f"{x} ({want - have} of {want} contrast entries not on {d})")
                    break
        # (3) .iconset 1x members on Macs: set_entries covers iconsets above (idiom mac).
        # (5) Icon Composer
        for src in sorted(all_sources):
            if any(under(src, ic) for ic in icons):
                cls["c5_iconcomposer"].append(f"{src} (built as a loose image asset)")
        for ic in icons:
            if ignored(ic):
                continue
            if icon_allowed(ic) and not any(under(a_, ic) for a_ in app_src):
                cls["c5_iconcomposer"].append(f"{ic} (not taken as the app icon: not in app[])")
        # (6) icon files in packs
        icon_dirs = [x for x in sets_all if ext(x) in ("appiconset", "iconset", "icon", "launchimage")]
        icon_dirs += [x for x in measure.apple_sets(inp) if False]
        for dd, dirs, _ in os.walk(inp):
            for n in dirs:
                if ext(n) in ("complicationset", "launchimage"):
                    icon_dirs.append(os.path.relpath(os.path.join(dd, n), inp))
        for p, where in sorted(pack_files.items()):
            src = variant[p][1].get("source") if p in variant else None
            hit = None
            if src and any(under(src, x) for x in icon_dirs):
                hit = src
            elif p.startswith("data/") and re.search(r"\.(icon|appiconset|iconset|complicationset)(/|$)", p):
                hit = p
            if hit:
                cls["c6_icon_in_pack"].append(f"{p} (from {hit}; in {sorted(where)[0]}{' …' if len(where) > 1 else ''})")
        # (7) extra app icon sets
        for x in sets_all:
            if ext(x) not in ("appiconset", "icon"):
                continue
            shipped = any(gets_any_of(d, x) for d in devices) or any(
                p.startswith("data/") and icon_set_name(x) + ".icon" in p for d in devices for p in got_paths.get(d, ()))
            if shipped and not icon_allowed(x):
                cls["c7_extra_icons"].append(f"{x} (settings: app-icon {settings_for(x).get('app-icon')}, "
                                             f"alternates {settings_for(x).get('alternate-app-icons', [])}, "
                                             f"include-all {bool(settings_for(x).get('include-all-app-icons'))})")
    else:
        files = measure.android_files_any(inp) if hasattr(measure, "android_files_any") else android_files(inp)
        groups = {}
        for t, n, rel in files:
            groups.setdefault((t, n), []).append(rel)
        row["sets_in"] = len(groups)
        row["sets_by_kind"] = {
            "xml-only": sum(1 for g in groups.values() if all(r.endswith(".xml") for r in g)),
            "bitmap": sum(1 for g in groups.values() if any(not r.endswith(".xml") for r in g)),
            "files": len(files)}
        all_got = set().union(*got_src.values()) if got_src else set()
        used = set(all_got) | app_src | {x[5:] for x in all_got if x.startswith("data:")}
        for dpath in data_paths:
            used.add(dpath[5:])
        dropped, matched, namedc = [], 0, 0
        all_sources = {v.get("source") for _, v in variant.values() if v.get("source")}
        for (t, n), rels in sorted(groups.items()):
            hit = any(r in used or r in all_sources for r in rels)
            nm = any(named(r) for r in rels)
            matched += hit
            namedc += (nm and not hit)
            if not hit and not nm:
                dropped.append(f"{t}/{n} ({', '.join(rels)})")
        row["matched"], row["named_only"], row["dropped"] = matched, namedc, dropped
        for t, n, rel in files:
            folder = rel.split("/")[-2]
            quals = folder.split("-")[1:]
            dens = [q for q in quals if q.endswith("dpi")]
            # (1) ldrtl
            if "ldrtl" in quals:
                if dens and dens[0] not in ("nodpi", "anydpi"):
                    miss = [] if any(gets(d, rel) for d in devices) else ["every device"]
                else:
                    miss = [d for d in devices if not gets(d, rel)]
                if miss:
                    cls["c1_rtl"].append(f"{rel} (missing on {', '.join(miss)})")
            # (4) mipmaps: every density to every device
            if t == "mipmap":
                for d in devices:
                    if not gets(d, rel):
                        cls["c4_mipmap"].append(f"{rel} (not on {d})")
        # (6) mipmaps and XML drawables in packs
        seen = {}
        for p, where in sorted(pack_files.items()):
            if p in variant:
                src = variant[p][1].get("source")
            elif p.startswith("data/"):
                src = p[5:]
            elif p.startswith("play:"):
                src = re.sub(r"^data/", "", re.sub(r"^tessera[^/]*/", "", p[5:]))
            else:
                src = p
            if src and (re.search(r"(^|/)mipmap[^/]*/", src) or (src.endswith(".xml") and re.search(r"(^|/)drawable[^/]*/", src))):
                seen.setdefault(src, []).append(f"{p} in {sorted(where)[0]}")
        for src, ws in sorted(seen.items()):
            cls["c6_icon_in_pack"].append(f"{src} ({'; '.join(ws[:2])}{' …' if len(ws) > 2 else ''})")
    # (10) PDFs in bundles / packs without preserves-vector-representation
    for p, where in sorted(pack_files.items()):
        if not p.lower().endswith(".pdf"):
            continue
        a = variant.get(p, (None, {}))[0]
        if a is None or not a.get("preservesVectorRepresentation"):
            cls["c10_pdf_unrasterised"].append(f"{p} (from {variant.get(p, (None, {}))[1].get('source')}; in {sorted(where)[0]})")
    row["classes"] = {k: len(v) for k, v in cls.items()}
    row["examples"] = {k: v[:20] for k, v in cls.items() if v}
    row["problem_samples"] = [{k: p.get(k) for k in ("file", "stage", "severity", "reason")} for p in problems[:400]]
    return row


ANDROID_FOLDER = re.compile(r"^(drawable|mipmap)(-.*)?$")


def android_files(root):
    """(type, name, path relative to root) for drawable*/mipmap* files under root (root may be a
    res/ folder or hold res/ folders)."""
    out = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        m = ANDROID_FOLDER.match(os.path.basename(d))
        if not m:
            continue
        for f in sorted(files):
            if f.startswith("."):
                continue
            s = measure.stem(f)
            if s.endswith(".9"):
                s = s[:-2]
            out.append((m.group(1), s, os.path.relpath(os.path.join(d, f), root)))
    return out


# ---------------------------------------------------------------------------------------------
# table

CLASS_COLS = [("c1_rtl", "(1) RTL"), ("c2_contrast", "(2) contrast"), ("c3_mac1x", "(3) Mac 1x"),
              ("c4_mipmap", "(4) mipmaps"), ("c5_iconcomposer", "(5) .icon"), ("c6_icon_in_pack", "(6) icon in pack"),
              ("c7_extra_icons", "(7) extra icons"), ("c8_ipad_idiom", "(8) iPad idiom"),
              ("c10_pdf_unrasterised", "(10) PDF unrasterised")]


def mb(n):
    return f"{n / 1e6:.2f} MB" if n >= 1e5 else f"{n / 1e3:.0f} kB"


def table(bdir, adir):
    rows = []
    for app in APPS:
        for run in APPS[app]["runs"]:
            b = load(os.path.join(bdir, f"{app}-{run}.json"))
            a = load(os.path.join(adir, f"{app}-{run}.json"))
            if b or a:
                rows.append((app, run, b or {}, a or {}))
    def g(r, k, d="–"):
        v = r.get(k)
        return d if v is None else v
    def arrow(b, a):
        return f"{b} → {a}" if b != a else f"{a}"
    hdr = ["app", "input", "sets in", "assets out (images+data; app files)", "silently dropped",
           "warnings / failures", "exit"] + [c[1] for c in CLASS_COLS] + \
          ["base-pack bytes per device", "app/ bytes", "wall s", "peak RSS MB"]
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    for app, run, b, a in rows:
        inp = APPS[app]["runs"][run].split("/", 1)[1] if "/" in APPS[app]["runs"][run] else "(repo root)"
        cells = [app, f"{run}: `{inp}`", arrow(g(b, "sets_in"), g(a, "sets_in")),
                 arrow(f"{g(b, 'assets_out')} ({g(b, 'assets_images')}+{g(b, 'assets_data')}; {g(b, 'app_files', 0)})",
                       f"{g(a, 'assets_out')} ({g(a, 'assets_images')}+{g(a, 'assets_data')}; {g(a, 'app_files', 0)})"),
                 f"**{arrow(len(b.get('dropped', [])) if b else '–', len(a.get('dropped', [])) if a else '–')}**",
                 arrow(f"{g(b, 'warnings')}/{g(b, 'failures')}", f"{g(a, 'warnings')}/{g(a, 'failures')}"),
                 arrow(g(b, "exit"), g(a, "exit"))]
        for k, _ in CLASS_COLS:
            cells.append(arrow(b.get("classes", {}).get(k, "–"), a.get("classes", {}).get(k, "–")))
        devs = a.get("devices") or b.get("devices") or []
        bb, ab = b.get("base_bytes", {}), a.get("base_bytes", {})
        cells.append("<br>".join(f"{d}: {mb(bb[d]) if d in bb else '–'} → {mb(ab[d]) if d in ab else '–'}" for d in devs))
        cells.append(arrow(mb(b.get("app_bytes", 0)), mb(a.get("app_bytes", 0))))
        cells.append(arrow(g(b, "wall_s"), g(a, "wall_s")))
        cells.append(arrow(g(b, "rss_mb"), g(a, "rss_mb")))
        print("| " + " | ".join(str(c) for c in cells) + " |")


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "runs":
        only = sys.argv[2:]
        for app, a in APPS.items():
            if only and app not in only:
                continue
            for run, rel in a["runs"].items():
                print(f"{app}\t{run}\t{a['kind']}\t{os.path.join(R, rel)}")
    elif cmd == "pipeline":
        sys.stdout.write(pipeline(sys.argv[2], sys.argv[3], sys.argv[4]))
    elif cmd == "check":
        print(json.dumps(check(*sys.argv[2:7]), indent=1, sort_keys=True))
    elif cmd == "table":
        table(sys.argv[2], sys.argv[3])
    else:
        print(__doc__)
        sys.exit(64)


if __name__ == "__main__":
    main()
