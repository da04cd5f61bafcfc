#!/usr/bin/env python3
"""Measure one tessera run on a real app's assets.

usage: measure.py KIND INPUT OUT LOG TIMEFILE  (KIND = apple | android)
Prints one JSON object (the row) on stdout; details (dropped sets, named sets, ...) go in it too.

Matching rules (documented in RESULTS.md):
  Apple  - a "set" is a folder ending in .imageset/.appiconset/.colorset/.dataset/.symbolset/
           .iconset/.imagestacklayer/.solidimagestacklayer; the Content.imageset inside an image
           stack layer is not counted separately (the layer is the set).
           A set is IN THE MANIFEST when
             (a) a variant's `source` (or an asset's `vector.source`) lies inside the set folder, or
             (b) a manifest name (asset or data), with its trait suffixes (`~...` on the last
                 component) removed, has the set's folder stem as last component and its other
                 components appear, in order, among the set's path components (extensions
                 stripped) -- this accepts the per-catalog prefix (`Mastodon/Resources/...`,
                 `Assets/...`) and provides-namespace groups, and nothing that names another
                 folder.
  Android - a "set" is a distinct (type, name) over drawable*/mipmap* folders (file stem, `.9`
           dropped), XML drawables included. It is in the manifest when a variant `source`, or a
           data entry's `path`/`name`, is a file of that type and stem.
  NAMED  - report.json failures/warnings `file` equal to the set path, inside it, or an ancestor
           folder of it that is not the catalog / input root and not a Contents.json; or the
           set's relative path appears on stderr.
"""
import json, os, re, sys

APPLE_SETS = ("imageset", "appiconset", "colorset", "dataset", "symbolset", "iconset",
              "imagestacklayer", "solidimagestacklayer")


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def ext(name):
    return name.rsplit(".", 1)[1] if "." in name else ""


def stem(name):
    return name.rsplit(".", 1)[0] if "." in name else name


def apple_sets(root):
    sets = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for n in dirs:
            e = ext(n)
            if e not in APPLE_SETS:
                continue
            rel = os.path.relpath(os.path.join(d, n), root)
            if e == "imageset" and ext(os.path.basename(d)) in ("imagestacklayer", "solidimagestacklayer"):
                continue  # Content.imageset of a layer: the layer is the set
            sets.append(rel)
    return sets


ANDROID_FOLDER = re.compile(r"^(drawable|mipmap)(-.*)?$")


def android_files(root):
    out = []  # (type, name, relpath)
    for d in sorted(os.listdir(root)):
        m = ANDROID_FOLDER.match(d)
        if not m or not os.path.isdir(os.path.join(root, d)):
            continue
        for f in sorted(os.listdir(os.path.join(root, d))):
            if f.startswith("."):
                continue
            s = stem(f)
            if s.endswith(".9"):
                s = s[:-2]
            out.append((m.group(1), s, f"{d}/{f}"))
    return out


def expected_name(root, rel, catalogs):
    """The name AFTER's documented rule gives a set: the catalog namespace when the input holds
    two or more catalogs (`Widgets/Assets.xcassets` -> `Widgets`, `Shared/Icons.xcassets` ->
    `Shared/Icons`), then each group folder with provides-namespace, then the set's stem."""
    parts = rel.split("/")
    idx = [i for i, p in enumerate(parts) if p.endswith(".xcassets")]
    out = []
    if idx:
        c = idx[-1]
        if len(catalogs) > 1:
            comps = parts[:c]
            st = stem(parts[c])
            out = comps if (st == "Assets" and comps) else comps + [st]
        start = c + 1
    else:
        start = 0
    for i in range(start, len(parts) - 1):
        folder = os.path.join(root, *parts[:i + 1])
        e = ext(parts[i])
        if e == "complicationset":
            out.append(stem(parts[i]))
        elif e in ("", "spriteatlas"):
            cj = load(os.path.join(folder, "Contents.json")) or {}
            if cj.get("properties", {}).get("provides-namespace"):
                out.append(parts[i])
    return "/".join(out + [stem(parts[-1])])


def strip_traits(name):
    parts = name.split("/")
    parts[-1] = parts[-1].split("~", 1)[0]
    return parts


def subsequence(needle, hay):
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


def main():
    kind, inp, out, log, timefile = sys.argv[1:6]
    inp = os.path.abspath(inp)
    row = {"kind": kind, "input": inp, "out": out}
    t = open(timefile).read() if os.path.exists(timefile) else ""
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", t)
    if m:
        row["wall_s"] = int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 + float(m.group(3))
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", t)
    if m:
        row["rss_mb"] = int(m.group(1)) / 1024
    m = re.search(r"Exit status: (\d+)", t)
    row["exit"] = int(m.group(1)) if m else None
    m = re.search(r"Command terminated by signal (\d+)", t)
    if m:
        row["signal"] = int(m.group(1))
    stderr = open(log, errors="replace").read() if os.path.exists(log) else ""

    manifest = load(os.path.join(out, "manifest.json"))
    report = load(os.path.join(out, "report.json"))
    row["has_manifest"] = manifest is not None
    row["has_report"] = report is not None
    assets = (manifest or {}).get("assets", [])
    data = (manifest or {}).get("data", [])
    row["assets_out"] = len(assets) + len(data) if manifest is not None else None
    row["assets_images"], row["assets_data"] = len(assets), len(data)
    sources = set()
    for a in assets:
        for v in a.get("variants", []):
            if v.get("source"):
                sources.add(v["source"])
        if a.get("vector", {}).get("source"):
            sources.add(a["vector"]["source"])
    names = [strip_traits(a["name"]) for a in assets] + [strip_traits(d["name"]) for d in data]

    failures = (report or {}).get("failures", [])
    warnings = (report or {}).get("warnings", [])
    row["failures"] = len(failures)
    row["warnings"] = len(warnings)
    def relative(f):
        f = (f or "").rstrip("/")
        return f[len(inp) + 1:] if f.startswith(inp + "/") else f
    problems = [relative(p.get("file")) for p in failures + warnings]
    reasons = "\n".join(p.get("reason", "") for p in failures + warnings)
    # stderr: only the warning/error lines, not the progress lines ([n/m] stage file)
    stderr = "\n".join(l for l in stderr.splitlines() if not re.match(r"^\[\d+/\d+\] ", l))

    def named(rel, roots):
        for f in problems:
            f = f.rstrip("/")
            if f == rel or f.startswith(rel + "/"):
                return "report"
            if rel.startswith(f + "/") and f not in roots and not f.endswith("Contents.json"):
                return "report (ancestor folder)"
        if rel + "/" in reasons or reasons.endswith(rel) or rel + ";" in reasons or rel + " " in reasons:
            return "report (reason text)"
        if os.path.join(inp, rel) in stderr:
            return "stderr"
        return None

    if kind == "apple":
        sets = apple_sets(inp)
        catalogs = {s.split(".xcassets/")[0] + ".xcassets" for s in sets if ".xcassets/" in s}
        exact_names = {"/".join(n) for n in names}
        row["match_method"] = {}
        roots = catalogs | {"", "."}
        row["sets_in"] = len(sets)
        row["sets_by_kind"] = {}
        for s in sets:
            row["sets_by_kind"][ext(s)] = row["sets_by_kind"].get(ext(s), 0) + 1
        by_name = {}
        for n in names:
            by_name.setdefault(n[-1], []).append(n[:-1])
        matched, named_sets, dropped = [], {}, []
        for s in sets:
            comps = [stem(c) for c in s.split("/")]
            st = comps[-1]
            how = None
            if expected_name(inp, s, catalogs) in exact_names:
                how = "exact name"
            elif any(src.startswith(s + "/") for src in sources):
                how = "variant source"
            elif any(subsequence(prefix, comps[:-1]) for prefix in by_name.get(st, [])):
                how = "loose name"
            hit = how is not None
            if how:
                row["match_method"][how] = row["match_method"].get(how, 0) + 1
            n = named(s, roots)
            if hit:
                matched.append(s)
            if n:
                named_sets[s] = n
            if not hit and not n:
                dropped.append(s)
        # image files listed in a Contents.json but used by no variant (partial drops)
        unused = []
        for s in sets:
            if ext(s) not in ("imageset", "appiconset", "imagestacklayer", "iconset"):
                continue
            folder = os.path.join(inp, s)
            cj = load(os.path.join(folder, "Contents.json"))
            files = set()
            if ext(s) == "iconset":
                files = {f for f in os.listdir(folder) if not f.startswith(".")}
            elif cj:
                files = {e["filename"] for e in cj.get("images", []) if e.get("filename")}
            for f in files:
                if os.path.exists(os.path.join(folder, f)) and f"{s}/{f}" not in sources and s not in named_sets:
                    unused.append(f"{s}/{f}")
    else:
        files = android_files(inp)
        groups = {}
        for t, n, rel in files:
            groups.setdefault((t, n), []).append(rel)
        row["sets_in"] = len(groups)
        row["sets_by_kind"] = {
            "xml-only": sum(1 for g in groups.values() if all(r.endswith(".xml") for r in g)),
            "bitmap": sum(1 for g in groups.values() if any(not r.endswith(".xml") for r in g)),
            "files": len(files)}
        used_files = set(sources)
        for d in data:
            p = d.get("path", "")
            for f in files:
                if p.endswith("/" + f[2]):
                    used_files.add(f[2])
        data_names = {strip_traits(d["name"])[-1].removesuffix(".xml") for d in data}
        matched, named_sets, dropped, unused = [], {}, [], []
        for (t, n), rels in sorted(groups.items()):
            hit = any(r in used_files for r in rels)
            nm = None
            for r in rels:
                nm = nm or named(r, {"", "."})
            label = f"{t}/{n}"
            if hit:
                matched.append(label)
            if nm:
                named_sets[label] = nm
            if not hit and not nm:
                dropped.append(f"{label} ({', '.join(rels)})")
            for r in rels:
                if r not in used_files and not named(r, {"", "."}):
                    unused.append(r)
        row["data_name_samples"] = sorted(data_names)[:5]
    row["matched"] = len(matched)
    row["named"] = len(named_sets)
    row["named_list"] = named_sets
    row["dropped"] = dropped
    row["files_unused"] = sorted(unused)

    # base-pack bytes per device
    if manifest is not None:
        base = [p["id"] for p in manifest.get("packs", []) if not p.get("tags")]
        per = {}
        for b in manifest.get("bundles", []):
            if b.get("pack") in base:
                per[b["device"]] = per.get(b["device"], 0) + b.get("bytes", 0)
        row["base_bytes"] = per
        row["packs"] = len(manifest.get("packs", []))
        row["devices"] = [d.get("id") for d in manifest.get("deviceClasses", [])]
    row["problem_samples"] = [{k: p.get(k) for k in ("file", "stage", "severity", "reason")}
                              for p in (failures + warnings)]
    print(json.dumps(row, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
