"""Generates photo-like benchmark inputs (made here, never committed).

A photo-like image: smooth low-frequency colour fields (what JPEG and WebP compress well) plus
fine grain (so PNG and the codecs cannot shortcut flat areas), from a fixed seed so every run
measures the same bytes.

usage: make_inputs.py OUTPUT_DIR WIDTH HEIGHT [formats...]   formats: jpeg png png-rgba webp
"""
import os
import subprocess
import sys

import numpy as np
from PIL import Image


def photo(width, height, alpha=False, seed=1234):
    rng = np.random.default_rng(seed)
    small = rng.integers(0, 256, size=(max(2, height // 48), max(2, width // 48), 3), dtype=np.uint8)
    base = np.asarray(Image.fromarray(small, "RGB").resize((width, height), Image.BICUBIC), dtype=np.int16)
    grain = rng.integers(-12, 13, size=(height, width, 1), dtype=np.int16)
    pixels = np.clip(base + grain, 0, 255).astype(np.uint8)
    if not alpha:
        return Image.fromarray(pixels, "RGB")
    ramp = np.linspace(0, 255, width, dtype=np.float32)[None, :].repeat(height, axis=0)
    a = np.clip(ramp + rng.integers(-8, 9, size=(height, width)), 0, 255).astype(np.uint8)
    return Image.fromarray(np.dstack([pixels, a]), "RGBA")


def main():
    folder, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    formats = sys.argv[4:] or ["jpeg", "png", "png-rgba", "webp"]
    os.makedirs(folder, exist_ok=True)
    names = {"jpeg": "jpg", "png": "png", "png-rgba": "rgba.png", "webp": "webp"}
    rgb = None
    for kind in formats:
        path = os.path.join(folder, f"photo-{width}x{height}.{names[kind]}")
        if os.path.exists(path):
            continue
        if kind == "webp" and width * height > 100_000_000:
            # libwebp cannot write this: a lossy VP8 frame's first partition is limited to 512 KiB,
            # and a 16000×12000 photo's per-macroblock modes overflow it even with one segment.
            print(f"skipped {path}: too large for lossy WebP's first partition", file=sys.stderr)
            continue
        if kind == "png-rgba":
            image = photo(width, height, alpha=True)
        else:
            rgb = rgb or photo(width, height)
            image = rgb
        tmp = path + ".tmp"
        fmt = {"jpeg": "JPEG", "png": "PNG", "png-rgba": "PNG", "webp": "WEBP"}[kind]
        options = {"JPEG": {"quality": 90}, "PNG": {"compress_level": 6}, "WEBP": {"quality": 80}}[fmt]
        try:
            image.save(tmp, fmt, **options)
        except ValueError:
            # Very large lossy WebPs overflow VP8's first partition at default settings;
            # cwebp can relax the partition limit.
            source = tmp + ".png"
            image.save(source, "PNG", compress_level=1)
            subprocess.run(["cwebp", "-quiet", "-q", "80", "-segments", "1", "-partition_limit", "100", source, "-o", tmp], check=True)
            os.remove(source)
        os.replace(tmp, path)
        print(f"made {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
