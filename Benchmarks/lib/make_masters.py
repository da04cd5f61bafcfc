"""Generates COUNT photo-like @3x masters, 3000–4000 px wide, half JPEG q90 and half PNG, with
grain like a camera's: the input of the pipeline benchmark.

usage: make_masters.py FOLDER COUNT
"""
import os
import sys

import numpy as np
from PIL import Image


def main():
    folder, count = sys.argv[1], int(sys.argv[2])
    if os.path.isdir(folder) and len(os.listdir(folder)) == count:
        return
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(2026)
    for index in range(count):
        width = int(rng.integers(3000, 4001)) // 3 * 3
        height = width * 3 // 4 // 3 * 3
        small = rng.integers(0, 256, size=(9, 12, 3), dtype=np.uint8)
        base = np.asarray(Image.fromarray(small, "RGB").resize((width, height), Image.BICUBIC), dtype=np.int16)
        grain = rng.normal(0, 4, size=(height, width, 1)).astype(np.int16)
        image = Image.fromarray(np.clip(base + grain, 0, 255).astype(np.uint8), "RGB")
        if index % 2:
            image.save(os.path.join(folder, f"photo{index:03d}@3x.jpg"), "JPEG", quality=90)
        else:
            # Level 1: the masters' own compression hardly matters and level 6 takes 5× longer to make.
            image.save(os.path.join(folder, f"photo{index:03d}@3x.png"), "PNG", compress_level=1)
    print(f"made {count} masters in {folder}", file=sys.stderr)


if __name__ == "__main__":
    main()
