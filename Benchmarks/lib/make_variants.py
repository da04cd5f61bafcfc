"""Generates the PNG encode benchmark's inputs: what the pipeline writes as variants.

usage: make_variants.py FOLDER
Two photos with camera grain downscaled as a variant would be (2400×1800 and 1200×900, RGB) and
one flat RGBA artwork (1200×1200: gradients, hard-edged shapes, a transparent surround).
"""
import os
import sys

import numpy as np
from PIL import Image, ImageDraw


def photo(rng, width, height):
    small = rng.integers(0, 256, size=(9, 12, 3), dtype=np.uint8)
    big = (width * 3 // 2, height * 3 // 2)
    base = np.asarray(Image.fromarray(small, "RGB").resize(big, Image.BICUBIC), dtype=np.int16)
    grain = rng.normal(0, 4, size=(big[1], big[0], 1)).astype(np.int16)
    return Image.fromarray(np.clip(base + grain, 0, 255).astype(np.uint8), "RGB").resize((width, height), Image.LANCZOS)


def artwork(size):
    y, x = np.mgrid[0:size, 0:size]
    pixels = np.zeros((size, size, 4), dtype=np.uint8)
    pixels[..., 0] = x * 255 // size
    pixels[..., 1] = y * 255 // size
    pixels[..., 2] = 160
    pixels[..., 3] = np.where((x - size // 2) ** 2 + (y - size // 2) ** 2 < (size * 2 // 5) ** 2, 255, 0)
    image = Image.fromarray(pixels, "RGBA")
    draw = ImageDraw.Draw(image)
    for index in range(12):
        offset = size // 5 + index * size // 25
        draw.rectangle([offset, offset, offset + size // 6, offset + size // 12], fill=(40 * (index % 6), 200, 90, 255))
    return image


def main():
    folder = sys.argv[1]
    if os.path.isdir(folder) and len(os.listdir(folder)) == 3:
        return
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(14)
    photo(rng, 2400, 1800).save(os.path.join(folder, "photo-2400x1800.png"), compress_level=1)
    photo(rng, 1200, 900).save(os.path.join(folder, "photo-1200x900.png"), compress_level=1)
    artwork(1200).save(os.path.join(folder, "artwork-1200-rgba.png"), compress_level=1)


if __name__ == "__main__":
    main()
