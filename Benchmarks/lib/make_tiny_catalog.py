"""Generates an asset catalog of COUNT image sets, each one tiny @3x PNG master (12×12 RGB, its
colours from the set's index, so no two are alike); every second set tagged for an on-demand pack
(ten tags). The input of the many-files benchmark (issue 54, item 14). Written with zlib alone:
100,000 sets take seconds, not minutes.

usage: make_tiny_catalog.py CATALOG COUNT
"""
import json
import os
import struct
import sys
import zlib

SIDE = 12


def png(index):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    r, g, b = index & 0xFF, (index >> 8) & 0xFF, (index >> 16) & 0xFF
    rows = b"".join(b"\x00" + b"".join(bytes((r, g, (b + y * SIDE + x) & 0xFF)) for x in range(SIDE))
                    for y in range(SIDE))
    header = struct.pack(">IIBBBBB", SIDE, SIDE, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")


def main():
    catalog, count = sys.argv[1], int(sys.argv[2])
    marker = os.path.join(catalog, f".made-{count}")
    if os.path.exists(marker):
        return
    os.makedirs(catalog, exist_ok=True)
    with open(os.path.join(catalog, "Contents.json"), "w") as out:
        json.dump({"info": {"author": "xcode", "version": 1}}, out)
    for index in range(count):
        name = f"tiny-{index:06d}"
        folder = os.path.join(catalog, f"{name}.imageset")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"{name}@3x.png"), "wb") as out:
            out.write(png(index))
        contents = {"images": [{"filename": f"{name}@3x.png", "idiom": "universal", "scale": "3x"}],
                    "info": {"author": "xcode", "version": 1}}
        if index % 2:
            contents["properties"] = {"on-demand-resource-tags": [f"many-{index % 10}"]}
        with open(os.path.join(folder, "Contents.json"), "w") as out:
            json.dump(contents, out, indent=2)
    open(marker, "w").close()
    print(f"made {count} image sets in {catalog}", file=sys.stderr)


if __name__ == "__main__":
    main()
