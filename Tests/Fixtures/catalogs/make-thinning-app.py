#!/usr/bin/env python3
"""Writes ThinningApp/: the small real-shaped app input the catalog tests pin.

Every file is made here but one: flat-colour PNGs, a hand-written one-page PDF and SVG; the HEIC
is `../heic/hopper.heic` (made from the corpus's hopper.jpg, ../heic/SOURCES.md), copied.
Run from this folder; the output is deterministic.
"""
import json, os, shutil, struct, zlib

ROOT = "ThinningApp"


def png(path, width, height, rgb):
    row = b"\x00" + bytes(rgb) * width
    raw = zlib.compress(row * height, 9)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", raw) + chunk(b"IEND", b""))
    write(path, data)


def pdf(path):
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 24 24] /Contents 4 0 R >>"]
    stream = b"0 0 1 rg 4 4 16 16 re f"
    objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    write(path, out)


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def contents(folder, obj):
    write(f"{folder}/Contents.json", (json.dumps(obj, indent=2, sort_keys=True) + "\n").encode())


INFO = {"author": "xcode", "version": 1}
shutil.rmtree(ROOT, ignore_errors=True)
app = f"{ROOT}/App/Assets.xcassets"
contents(app, {"info": INFO})
# A group whose tag applies to every set inside it; Map adds its own.
contents(f"{app}/Levels", {"info": INFO, "properties": {"provides-namespace": True, "on-demand-resource-tags": ["level1"]}})
pdf(f"{app}/Levels/Map.imageset/Map.pdf")
contents(f"{app}/Levels/Map.imageset", {
    "images": [{"filename": "Map.pdf", "idiom": "universal"}], "info": INFO,
    "properties": {"preserves-vector-representation": True, "template-rendering-intent": "template",
                   "on-demand-resource-tags": ["maps"]}})
write(f"{app}/Levels/Badge.imageset/Badge.svg",
      b'<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><circle cx="12" cy="12" r="10" fill="red"/></svg>\n')
contents(f"{app}/Levels/Badge.imageset", {"images": [{"filename": "Badge.svg", "idiom": "universal"}], "info": INFO})
# A real HEIC (HEVC) still: Tessera decodes it to prove it valid, then ships it as it is.
with open("../heic/hopper.heic", "rb") as source:
    write(f"{app}/Photo.imageset/Photo.heic", source.read())
contents(f"{app}/Photo.imageset", {"images": [{"filename": "Photo.heic", "idiom": "universal"}], "info": INFO})
png(f"{app}/Arrow.imageset/arrow@2x.png", 8, 8, (0, 128, 0))
png(f"{app}/Arrow.imageset/arrow-rtl@2x.png", 8, 8, (128, 0, 0))
contents(f"{app}/Arrow.imageset", {"images": [
    {"filename": "arrow@2x.png", "idiom": "universal", "scale": "2x", "language-direction": "left-to-right"},
    {"filename": "arrow-rtl@2x.png", "idiom": "universal", "scale": "2x", "language-direction": "right-to-left"},
    {"idiom": "universal", "scale": "3x"}], "info": INFO})
# Xcode 16's single-size icon with dark and tinted appearances.
png(f"{app}/AppIcon.appiconset/icon.png", 1024, 1024, (30, 90, 200))
png(f"{app}/AppIcon.appiconset/icon-dark.png", 1024, 1024, (10, 20, 40))
png(f"{app}/AppIcon.appiconset/icon-tinted.png", 1024, 1024, (128, 128, 128))
contents(f"{app}/AppIcon.appiconset", {"images": [
    {"filename": "icon.png", "idiom": "universal", "platform": "ios", "size": "1024x1024"},
    {"appearances": [{"appearance": "luminosity", "value": "dark"}], "filename": "icon-dark.png",
     "idiom": "universal", "platform": "ios", "size": "1024x1024"},
    {"appearances": [{"appearance": "luminosity", "value": "tinted"}], "filename": "icon-tinted.png",
     "idiom": "universal", "platform": "ios", "size": "1024x1024"}], "info": INFO})
# A second target's catalog with its own AppIcon: a namespace of its own, no collision.
widgets = f"{ROOT}/Widgets/Assets.xcassets"
contents(widgets, {"info": INFO})
png(f"{widgets}/AppIcon.appiconset/widget-icon.png", 1024, 1024, (200, 90, 30))
contents(f"{widgets}/AppIcon.appiconset", {"images": [
    {"filename": "widget-icon.png", "idiom": "universal", "platform": "ios", "size": "1024x1024"}], "info": INFO})
