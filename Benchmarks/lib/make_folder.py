"""Generates a folder of COUNT photo-like images (half PNG, half JPEG q85, 512×384) for packing.

usage: make_folder.py FOLDER COUNT
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
    rng = np.random.default_rng(99)
    for index in range(count):
        small = rng.integers(0, 256, size=(8, 11, 3), dtype=np.uint8)
        base = np.asarray(Image.fromarray(small, "RGB").resize((512, 384), Image.BICUBIC), dtype=np.int16)
        grain = rng.integers(-6, 7, size=(384, 512, 1), dtype=np.int16)
        image = Image.fromarray(np.clip(base + grain, 0, 255).astype(np.uint8), "RGB")
        if index % 2:
            image.save(os.path.join(folder, f"image{index:03d}.jpg"), "JPEG", quality=85)
        else:
            image.save(os.path.join(folder, f"image{index:03d}.png"), "PNG", compress_level=6)
    print(f"made {count} images in {folder}", file=sys.stderr)


if __name__ == "__main__":
    main()
