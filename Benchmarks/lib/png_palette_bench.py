"""Lossy palette benchmark driver.

usage: png_palette_bench.py RUNS TESSERA WORK_DIR KIND:INPUT...
Each input is first written as Tessera's truecolour PNG (`--png-effort default`): the baseline
for bytes and the pixels PSNR is measured against. Then Tessera with `--png-palette lossy` at each
quality range (at the default effort and at `--png-effort max`), and pngquant at the same range
and speed (4), both reading that PNG. PSNR is on
premultiplied RGB, as in downscale_bench.py. Totals per kind sum bytes and time.
"""
import os
import subprocess
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(__file__))
from measure import run  # noqa: E402

QUALITIES = ["40-70", "65-90", "80-98"]
# Tessera's variants: (label, extra flags). `max` compresses the indices at libdeflate level 12.
EFFORTS = [("", []), (" max", ["--png-effort", "max"])]


def premultiplied(path):
    rgba = np.asarray(Image.open(path).convert("RGBA"), dtype=np.float64)
    return rgba[..., :3] * rgba[..., 3:4] / 255


def psnr(a_path, b_path):
    mse = np.mean((premultiplied(a_path) - premultiplied(b_path)) ** 2)
    return float("inf") if mse == 0 else 10 * np.log10(255 * 255 / mse)


def indexed(path):
    return Image.open(path).mode == "P"


def main():
    runs, tessera, work = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    inputs = [item.split(":", 1) for item in sys.argv[4:]]
    pngquant = subprocess.run(["pngquant", "--version"], capture_output=True, text=True).stdout.strip()
    version = subprocess.run([tessera, "version"], capture_output=True, text=True).stdout
    liq = next((line.strip() for line in version.splitlines() if "imagequant" in line), "libimagequant")
    print(f"\nLossy PNG palettes (median of {runs} runs; bytes and PSNR against Tessera's truecolour PNG)")
    print(f"peers: pngquant {pngquant} (--speed 4, its default dithering); Tessera: {liq}, speed 4, dither 1.0\n")
    header = (f"{'input':<34} {'tool':<30} {'time s':>7} {'bytes':>10} {'× truecolour':>13} {'PSNR dB':>8} "
              f"{'indexed':>8} {'time × pngquant':>16} {'bytes × pngquant':>17}")
    print(header)
    print("-" * len(header))
    totals = {}
    for kind, path in inputs:
        name = os.path.basename(path)
        base = os.path.abspath(os.path.join(work, f"{name}.truecolour.png"))
        b_time, _, error = run([tessera, "convert", path, base], runs)
        if error:
            print(f"{name:<34} FAILED: {error}")
            continue
        b_bytes = os.path.getsize(base)
        print(f"{name[:34]:<34} {'tessera truecolour (default)':<30} {b_time:>7.3f} {b_bytes:>10,} {1:>13.3f} {'∞':>8} {'no':>8}")
        add(totals, (kind, "truecolour"), b_time, b_bytes, b_bytes)
        for quality in QUALITIES:
            peer = os.path.join(work, f"{name}.pngquant-{quality}.png")
            if os.path.exists(peer):
                os.remove(peer)
            p_time, _, p_error = run(["pngquant", "--quality", quality, "--speed", "4", "--force", "--output", peer, base], runs)
            # pngquant exits 99 and writes nothing below the floor: a build would keep the truecolour file.
            p_bytes = os.path.getsize(peer) if not p_error and os.path.exists(peer) else None
            for label, flags in EFFORTS:
                out = os.path.join(work, f"{name}.tessera-{quality}{label.strip()}.png")
                t_time, _, error = run([tessera, "convert", base, out, "--png-palette", "lossy", "--png-palette-quality", quality] + flags, runs)
                if error:
                    print(f"{'':<34} tessera {quality:<22} FAILED: {error}")
                    continue
                t_bytes = os.path.getsize(out)
                ratios = (f"{t_time / p_time:>16.2f} {t_bytes / p_bytes:>17.3f}" if p_bytes else f"{'(pngquant: below floor)':>34}")
                print(f"{'':<34} {'tessera lossy ' + quality + label:<30} {t_time:>7.3f} {t_bytes:>10,} {t_bytes / b_bytes:>13.3f} "
                      f"{psnr(out, base):>8.2f} {'yes' if indexed(out) else 'no':>8} {ratios}")
                add(totals, (kind, f"tessera {quality}{label}"), t_time, t_bytes, b_bytes)
            if p_bytes:
                print(f"{'':<34} {'pngquant ' + quality:<30} {p_time:>7.3f} {p_bytes:>10,} {p_bytes / b_bytes:>13.3f} "
                      f"{psnr(peer, base):>8.2f} {'yes':>8}")
            add(totals, (kind, f"pngquant {quality}"), p_time or 0.0, p_bytes or b_bytes, b_bytes)
    print("\nTotals per kind (sum over its inputs; below its floor a tool's file counts as the truecolour one)")
    for (kind, tool), (time, size, base) in totals.items():
        print(f"  {kind:<6} {tool:<22} {time:>7.3f} s {size:>11,} bytes  × truecolour {size / base:.3f}")


def add(totals, key, time, size, base):
    t, s, b = totals.get(key, (0.0, 0, 0))
    totals[key] = (t + time, s + size, b + base)


if __name__ == "__main__":
    main()
