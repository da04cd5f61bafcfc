"""Re-encodes PNG inputs with Tessera at each --png-effort and with the peers, and prints the
summed median wall time and output bytes per tool, with ratios to Tessera's encoder before #14.

usage: png_encode_bench.py RUNS TESSERA PEER_BINARY OUTDIR INPUT.png...
Every command decodes the input PNG and writes a PNG (end to end); `encode s` is the encode alone:
for Tessera, its time minus its decode-only run (the same decode written as .bitmap); for the
libpng/libspng helper, its own in-process timing.
"""
import os
import statistics
import subprocess
import sys
import time


def versions(tessera):
    lines = subprocess.run([tessera, "version"], capture_output=True, text=True).stdout.splitlines()
    table = dict(line.split(" ", 1) for line in lines if " " in line)
    vips = subprocess.run(["vips", "--version"], capture_output=True, text=True).stdout.strip()
    pillow = subprocess.run(["python3", "-c", "import PIL; print(PIL.__version__)"], capture_output=True, text=True).stdout.strip()
    spng = subprocess.run(["pkg-config", "--modversion", "spng"], capture_output=True, text=True).stdout.strip()
    return table, vips, pillow, spng


def main():
    runs, tessera, peer, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    inputs = sys.argv[5:]
    table, vips, pillow, spng = versions(tessera)
    libpng, libdeflate = table.get("libpng", "?"), table.get("libdeflate", "?")
    before = f"Tessera before #14 (libpng {libpng}, zlib 9)"
    tools = [(f"tessera --png-effort {e} (libdeflate {libdeflate})", "tessera", [tessera, "convert", "--png-effort", e, "{in}", "{out}"])
             for e in ("fast", "default", "max")]
    tools += [(before, "helper", [peer, "libpng", "9", "{in}", "{out}"]),
              (f"libpng {libpng}, zlib 6", "helper", [peer, "libpng", "6", "{in}", "{out}"]),
              (f"libspng {spng}, zlib 6", "helper", [peer, "spng", "6", "{in}", "{out}"]),
              (f"vips copy ({vips}, pngsave defaults)", "other", ["vips", "copy", "{in}", "{out}"]),
              (f"Pillow {pillow} save (compress_level 6)", "other",
               ["python3", "-c", "import sys; from PIL import Image; Image.open(sys.argv[1]).save(sys.argv[2])", "{in}", "{out}"])]
    decode_only = [tessera, "convert", "{in}", "{out}"]

    def run(command, source, target):
        args = [a.replace("{in}", source).replace("{out}", target) for a in command]
        walls, inner = [], []
        for _ in range(runs):
            start = time.monotonic()
            result = subprocess.run(args, capture_output=True, text=True)
            walls.append(time.monotonic() - start)
            if result.returncode != 0:
                sys.exit(f"failed: {' '.join(args)}: {result.stderr.strip()}")
            if command[0] == peer:
                inner.append(float(result.stdout.split()[1]))
        return statistics.median(walls), (statistics.median(inner) if inner else None), os.path.getsize(target)

    totals = {name: [0.0, 0.0, 0] for name, _, _ in tools}
    for source in inputs:
        base = os.path.join(out, os.path.basename(source))
        decode_wall, _, _ = run(decode_only, source, base + ".bitmap")
        for index, (name, kind, command) in enumerate(tools):
            wall, inner, size = run(command, source, f"{base}.{index}.png")
            encode = inner if inner is not None else (wall - decode_wall if kind == "tessera" else float("nan"))
            totals[name][0] += wall
            totals[name][1] += encode
            totals[name][2] += size

    print(f"\nPNG re-encode of {len(inputs)} images ({', '.join(os.path.basename(i) for i in inputs)}), "
          f"median of {runs} runs each, summed")
    print("| tool | wall s | encode s | bytes | wall × before | encode × before | bytes × before |")
    print("|---|---|---|---|---|---|---|")
    ref = totals[before]
    for name, (wall, encode, size) in totals.items():
        encode_text = "–" if encode != encode else f"{encode:.2f}"
        ratio = "–" if encode != encode else f"{encode / ref[1]:.2f}"
        print(f"| {name} | {wall:.2f} | {encode_text} | {size:,} | {wall / ref[0]:.2f} | {ratio} | {size / ref[2]:.3f} |")
    default = totals[tools[1][0]]
    print(f"\ntessera default vs {before}: encode {ref[1] / default[1]:.2f}× faster, bytes {default[2] / ref[2]:.3f}×")
    for name, (wall, _, size) in totals.items():
        if not name.startswith("tessera") and name != before:
            print(f"tessera default / {name}: time {default[0] / wall:.2f}, bytes {default[2] / size:.3f}")


if __name__ == "__main__":
    main()
