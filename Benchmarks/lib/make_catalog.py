"""Generates an asset catalog of COUNT image sets (one small @3x master each, 90–180 px, half PNG,
half JPEG q90; two thirds tagged for on-demand packs, 100 sets a tag): the size report
benchmark's build. With --change, turns a copy of it into the next build: 50 sets redrawn larger,
25 removed, 25 added.

usage: make_catalog.py CATALOG COUNT [--change]
"""
import json
import os
import shutil
import sys

import numpy as np
from PIL import Image


def draw(path, index, rng, scale=1.0):
    width = int(int(rng.integers(90, 181)) * scale) // 3 * 3
    height = width * 3 // 4 // 3 * 3
    small = rng.integers(0, 256, size=(4, 5, 3), dtype=np.uint8)
    image = Image.fromarray(small, "RGB").resize((width, height), Image.BICUBIC)
    if index % 2:
        image.save(path + ".jpg", "JPEG", quality=90)
        return os.path.basename(path) + ".jpg"
    image.save(path + ".png", "PNG", compress_level=6)
    return os.path.basename(path) + ".png"


def make_set(catalog, index, rng, scale=1.0):
    folder = os.path.join(catalog, f"asset-{index:05d}.imageset")
    os.makedirs(folder, exist_ok=True)
    name = draw(os.path.join(folder, f"asset-{index:05d}@3x"), index, rng, scale)
    contents = {"images": [{"filename": name, "idiom": "universal", "scale": "3x"}],
                "info": {"author": "xcode", "version": 1}}
    if index % 3:
        contents["properties"] = {"on-demand-resource-tags": [f"level-{index // 100:02d}"]}
    with open(os.path.join(folder, "Contents.json"), "w") as out:
        json.dump(contents, out, indent=2)


def main():
    catalog, count = sys.argv[1], int(sys.argv[2])
    if "--change" in sys.argv[3:]:
        rng = np.random.default_rng(7)
        for index in range(0, 50):
            shutil.rmtree(os.path.join(catalog, f"asset-{index * 7:05d}.imageset"))
            make_set(catalog, index * 7, rng, scale=1.5)
        for index in range(count - 25, count):
            shutil.rmtree(os.path.join(catalog, f"asset-{index:05d}.imageset"))
        for index in range(count, count + 25):
            make_set(catalog, index, rng)
        return
    os.makedirs(catalog, exist_ok=True)
    with open(os.path.join(catalog, "Contents.json"), "w") as out:
        json.dump({"info": {"author": "xcode", "version": 1}}, out)
    rng = np.random.default_rng(1)
    for index in range(count):
        make_set(catalog, index, rng)


if __name__ == "__main__":
    main()
