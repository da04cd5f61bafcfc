"""Generates COUNT small @3x masters (240–480 px wide, half PNG, half JPEG q90) in groups of 50
folders: the input of the incremental-build benchmark. With SEED, rewrites only asset INDEX
(the 'one changed master').

usage: make_assets.py FOLDER COUNT [INDEX SEED]
"""
import os
import sys

import numpy as np
from PIL import Image


def make(folder, index, rng):
    width = int(rng.integers(240, 481)) // 3 * 3
    height = width * 3 // 4 // 3 * 3
    small = rng.integers(0, 256, size=(6, 8, 3), dtype=np.uint8)
    base = np.asarray(Image.fromarray(small, "RGB").resize((width, height), Image.BICUBIC), dtype=np.int16)
    grain = rng.normal(0, 3, size=(height, width, 1)).astype(np.int16)
    image = Image.fromarray(np.clip(base + grain, 0, 255).astype(np.uint8), "RGB")
    sub = os.path.join(folder, f"group{index // 50:02d}")
    os.makedirs(sub, exist_ok=True)
    if index % 2:
        image.save(os.path.join(sub, f"asset{index:04d}@3x.jpg"), "JPEG", quality=90)
    else:
        image.save(os.path.join(sub, f"asset{index:04d}@3x.png"), "PNG", compress_level=6)


def main():
    folder, count = sys.argv[1], int(sys.argv[2])
    if len(sys.argv) == 5:
        make(folder, int(sys.argv[3]), np.random.default_rng(int(sys.argv[4])))
        return
    rng = np.random.default_rng(11)
    for index in range(count):
        make(folder, index, rng)
    print(f"made {count} masters in {folder}", file=sys.stderr)


if __name__ == "__main__":
    main()
