"""Downscale benchmark driver: times Tessera and its peers on each input, then checks quality.

usage: downscale_bench.py RUNS TESSERA WORK_DIR INPUT...
Every tool makes a 1024-pixel-box thumbnail written as PNG (so no tool is charged for a lossy
encoder the others skip). Quality: PSNR of Tessera's thumbnail against Pillow's LANCZOS one, on premultiplied RGB.
"""
import os
import subprocess
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(__file__))
from measure import run  # noqa: E402

PILLOW = ("import sys; from PIL import Image; Image.MAX_IMAGE_PIXELS = None; "
          "im = Image.open(sys.argv[1]); im.draft('RGB', (1024, 1024)); "
          "im.thumbnail((1024, 1024), Image.LANCZOS); im.save(sys.argv[2])")


def premultiplied(path):
    """RGB weighted by alpha: the colour of a nearly transparent pixel is noise nobody sees."""
    rgba = np.asarray(Image.open(path).convert("RGBA"), dtype=np.float64)
    return rgba[..., :3] * rgba[..., 3:4] / 255


def psnr(a_path, b_path):
    a = premultiplied(a_path)
    b = premultiplied(b_path)
    if a.shape != b.shape:
        h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
        a, b = a[:h, :w], b[:h, :w]
    mse = np.mean((a - b) ** 2)
    return float("inf") if mse == 0 else 10 * np.log10(255 * 255 / mse)


def main():
    runs, tessera, work = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    inputs = sys.argv[4:]
    vips = subprocess.run(["vips", "--version"], capture_output=True, text=True).stdout.strip()
    magick = subprocess.run(["convert", "-version"], capture_output=True, text=True).stdout.split("\n")[0].split(" ")[2]
    import PIL
    print(f"\nThumbnail to fit 1024×1024, written as PNG (median of {runs} runs; RSS = peak resident set size; "
          f"load average {' '.join(open('/proc/loadavg').read().split()[:3])})")
    print(f"peers: vipsthumbnail {vips}, ImageMagick {magick}, Pillow {PIL.__version__}\n")
    header = (f"{'input':<30} {'tool':<36} {'time s':>8} {'RSS MB':>8} {'bytes':>10} {'Tessera time ×':>15} "
              f"{'Tessera RSS ×':>14} {'Tessera bytes ×':>16}")
    print(header)
    print("-" * len(header))
    for path in inputs:
        name = os.path.basename(path)
        # Absolute: vipsthumbnail resolves a relative -o against the input's folder.
        out = lambda tool: os.path.abspath(os.path.join(work, f"thumb-{tool}-{name}.png"))  # noqa: E731
        subject = [tessera, "downscale", path, out("tessera"), "--fit", "1024x1024"]
        peers = {
            "vipsthumbnail -s 1024": ["vipsthumbnail", path, "-s", "1024", "-o", out("vips")],
            "convert -resize 1024x1024": ["convert", path, "-resize", "1024x1024", out("magick")],
            "convert -define jpeg:size=2048x2048": ["convert", "-define", "jpeg:size=2048x2048", path,
                                                    "-resize", "1024x1024", out("magick-size")],
            "Pillow draft + thumbnail(LANCZOS)": ["python3", "-c", PILLOW, path, out("pillow")],
        }
        if not path.endswith(".jpg"):
            del peers["convert -define jpeg:size=2048x2048"]
        # TESSERA_BEFORE=path/to/tessera: another build as a peer, for before/after in one run.
        if os.environ.get("TESSERA_BEFORE"):
            peers = {"tessera before (TESSERA_BEFORE)": [os.environ["TESSERA_BEFORE"], "downscale", path,
                                                          out("before"), "--fit", "1024x1024"], **peers}
        t_time, t_rss, error = run(subject, runs)
        if error:
            print(f"{name:<30} {'tessera':<36} FAILED: {error}")
            continue
        t_bytes = os.path.getsize(out("tessera"))
        print(f"{name:<30} {'tessera':<36} {t_time:>8.3f} {t_rss:>8.1f} {t_bytes:>10,}")
        for tool, command in peers.items():
            p_time, p_rss, error = run(command, runs)
            if error:
                print(f"{'':<30} {tool:<36} FAILED: {error[0][:60]}")
                continue
            p_bytes = os.path.getsize(command[-1] if tool.startswith("convert") or tool.startswith("Pillow")
                                      else command[3] if tool.startswith("tessera before") else out("vips"))
            print(f"{'':<30} {tool:<36} {p_time:>8.3f} {p_rss:>8.1f} {p_bytes:>10,} {t_time / p_time:>15.2f} "
                  f"{t_rss / p_rss:>14.2f} {t_bytes / p_bytes:>16.3f}")
        if os.path.exists(out("pillow")):
            print(f"{'':<30} {'PSNR Tessera vs Pillow LANCZOS':<36} {psnr(out('tessera'), out('pillow')):>8.1f} dB")


if __name__ == "__main__":
    main()
