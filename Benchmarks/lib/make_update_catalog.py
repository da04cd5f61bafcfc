"""Generates the update benchmark's asset catalog: COUNT image sets (one small @3x master each,
60–120 px, half PNG, half JPEG q90), every one tagged for an on-demand pack, TAGS (20) packs.
With --change K, turns it into build K's input: one PNG set, a different one for each K, redrawn
(other pixels, the same size), so builds 2, 3, … each change exactly one image.

usage: make_update_catalog.py CATALOG COUNT [--change K]
"""
import json
import os
import sys

import numpy as np
from PIL import Image

TAGS = 20


def make_set(catalog, index, rng):
    folder = os.path.join(catalog, f"asset-{index:05d}.imageset")
    os.makedirs(folder, exist_ok=True)
    width = int(60 + (index * 37) % 61) // 3 * 3
    height = width * 3 // 4 // 3 * 3
    small = rng.integers(0, 256, size=(4, 5, 3), dtype=np.uint8)
    image = Image.fromarray(small, "RGB").resize((width, height), Image.BICUBIC)
    stem = os.path.join(folder, f"asset-{index:05d}@3x")
    if index % 2:
        image.save(stem + ".jpg", "JPEG", quality=90)
        name = os.path.basename(stem) + ".jpg"
    else:
        image.save(stem + ".png", "PNG", compress_level=6)
        name = os.path.basename(stem) + ".png"
    contents = {"images": [{"filename": name, "idiom": "universal", "scale": "3x"}],
                "info": {"author": "xcode", "version": 1},
                "properties": {"on-demand-resource-tags": [f"pack-{index % TAGS:02d}"]}}
    with open(os.path.join(folder, "Contents.json"), "w") as out:
        json.dump(contents, out, indent=2)


def changed_index(build, count):
    return (build * 398) % count // 2 * 2


def main():
    catalog, count = sys.argv[1], int(sys.argv[2])
    if "--change" in sys.argv[3:]:
        build = int(sys.argv[sys.argv.index("--change") + 1])
        make_set(catalog, changed_index(build, count), np.random.default_rng(1000 + build))
        print(f"asset-{changed_index(build, count):05d}")
        return
    os.makedirs(catalog, exist_ok=True)
    with open(os.path.join(catalog, "Contents.json"), "w") as out:
        json.dump({"info": {"author": "xcode", "version": 1}}, out)
    rng = np.random.default_rng(1)
    for index in range(count):
        make_set(catalog, index, rng)


if __name__ == "__main__":
    main()
