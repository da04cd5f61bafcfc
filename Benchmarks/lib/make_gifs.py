"""Generates animated GIF benchmark inputs: FRAMES frames of 480×270 with varied delays.

usage: make_gifs.py OUTPUT_DIR FRAMES...
Each frame is a moving gradient with noise, so LZW has real work; delays cycle through
40, 70, 100 and 30 ms (GIF stores centiseconds).
"""
import os
import sys

import numpy as np
from PIL import Image


def frames(count, width=480, height=270, seed=7):
    rng = np.random.default_rng(seed)
    x = np.linspace(0, 255, width)[None, :]
    y = np.linspace(0, 255, height)[:, None]
    for index in range(count):
        shift = index * 7
        r = (x + shift) % 256 + 0 * y
        g = (y + shift * 2) % 256 + 0 * x
        b = ((x + y) / 2 + shift * 3) % 256
        noise = rng.integers(-20, 21, size=(height, width, 3))
        rgb = np.clip(np.dstack([r, g, b]) + noise, 0, 255).astype(np.uint8)
        yield Image.fromarray(rgb, "RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    for count in map(int, sys.argv[2:]):
        path = os.path.join(folder, f"anim-{count}.gif")
        if os.path.exists(path):
            continue
        images = list(frames(count))
        delays = [[40, 70, 100, 30][i % 4] for i in range(count)]
        images[0].save(path + ".tmp", "GIF", save_all=True, append_images=images[1:], duration=delays, loop=0,
                       disposal=1, optimize=False)
        os.replace(path + ".tmp", path)
        print(f"made {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
