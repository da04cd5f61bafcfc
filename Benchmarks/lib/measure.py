"""Runs commands repeatedly and prints a table of median wall time, peak RSS and ratios.

usage: measure.py RUNS SPEC.json
SPEC: {"title": ..., "cases": [{"input": name, "subject": cmd-list, "peers": {name: cmd-list}}]}
Each command is run RUNS times under /usr/bin/time; the median wall time and the largest peak
RSS are reported. Ratios are Tessera's median time (and RSS) divided by the peer's: < 1 means
Tessera is faster (or leaner).
"""
import json
import statistics
import subprocess
import sys
import tempfile


def run(command, runs):
    times, peaks = [], []
    for _ in range(runs):
        with tempfile.NamedTemporaryFile("r") as report:
            result = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", report.name] + command,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if result.returncode != 0:
                return None, None, result.stderr.strip().splitlines()[-1:] or ["failed"]
            seconds, kilobytes = report.read().split()[-2:]
            times.append(float(seconds))
            peaks.append(int(kilobytes) / 1024)
    return statistics.median(times), max(peaks), None


def main():
    runs = int(sys.argv[1])
    spec = json.load(open(sys.argv[2]))
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"\n{spec['title']} (median of {runs} runs; RSS = peak resident set size; load average {load})\n")
    header = f"{'input':<28} {'tool':<34} {'time s':>8} {'RSS MB':>8} {'Tessera time ×':>15} {'Tessera RSS ×':>14}"
    print(header)
    print("-" * len(header))
    for case in spec["cases"]:
        t_time, t_rss, error = run(case["subject"], runs)
        if error:
            print(f"{case['input']:<28} {'tessera':<34} FAILED: {error}")
            continue
        print(f"{case['input']:<28} {'tessera':<34} {t_time:>8.3f} {t_rss:>8.1f} {'':>15} {'':>14}")
        for name, command in case["peers"].items():
            p_time, p_rss, error = run(command, runs)
            if error:
                print(f"{'':<28} {name:<34} FAILED: {error}")
                continue
            ratio = t_time / p_time if p_time > 0 else float("inf")
            rss_ratio = t_rss / p_rss if p_rss > 0 else float("inf")
            print(f"{'':<28} {name:<34} {p_time:>8.3f} {p_rss:>8.1f} {ratio:>15.2f} {rss_ratio:>14.2f}")


if __name__ == "__main__":
    main()
