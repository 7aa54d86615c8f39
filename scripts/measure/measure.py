#!/usr/bin/env python3
"""Measures `quire run` against a minimal C GTK 4 window (run by scripts/measure-gtk inside Xvfb
and a session bus): time to the first painted frame and peak resident memory for the demo flow,
a 1,000-page flow and the C window (runs alternate), and Quire's own work per animation frame while
paging through the 1,000-page flow. Prints Markdown tables and checks the targets; exits 1 when one
is missed. Standard library only."""
import json
import os
import statistics
import subprocess
import sys
import time


def run_once(command):
    env = dict(os.environ, QUIRE_MEASURE_T0_US=str(time.monotonic_ns() // 1000))
    out = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    values = {}
    for line in out.stdout.splitlines() + out.stderr.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] in ("first-frame-ms", "peak-rss-mib"):
            values[parts[0]] = float(parts[1])
        if len(parts) == 3 and parts[0] == "phase":
            values.setdefault("phases", {})[parts[1]] = float(parts[2])
        if line.startswith("frame work:"):
            values["frame-work"] = line
    if "first-frame-ms" not in values:
        raise SystemExit("no first frame from %s:\n%s\n%s" % (" ".join(command), out.stdout, out.stderr[-2000:]))
    return values


def main():
    quire, c_window, thousand, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    commands = {
        "C window": [c_window],
        "quire, demo (5 pages)": [quire, "run", "--exit-after-first-frame"],
        "quire, 1,000 pages": [quire, "run", thousand, "--exit-after-first-frame"],
    }
    for name, command in commands.items():  # warm-up: caches, fonts
        run_once(command)
    samples = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            samples[name].append(run_once(command))
    print("| program | first frame ms, median (min–max) | peak RSS MiB, median |")
    print("|---|---|---|")
    median = {}
    for name, values in samples.items():
        frames = [v["first-frame-ms"] for v in values]
        rss = [v["peak-rss-mib"] for v in values]
        median[name] = (statistics.median(frames), statistics.median(rss))
        print("| %s | %.1f (%.1f–%.1f) | %.1f |" % (name, median[name][0], min(frames), max(frames), median[name][1]))
    # Where the time to the first frame goes: each start-up moment both programs report (ms after
    # the launch, median), and the first frame.
    print()
    print("| moment, ms after launch (median) | " + " | ".join(samples) + " |")
    print("|---|" + "---|" * len(samples))
    earliest = {}
    for values in samples.values():
        for name in values[0].get("phases", {}):
            earliest[name] = min(earliest.get(name, float("inf")), statistics.median(
                [v["phases"][name] for v in values if name in v.get("phases", {})]))
    moments = sorted(earliest, key=earliest.get)
    for moment in moments + ["first frame"]:
        cells = []
        for values in samples.values():
            times = [v["first-frame-ms"] if moment == "first frame" else v.get("phases", {}).get(moment) for v in values]
            times = [t for t in times if t is not None]
            cells.append("%.1f" % statistics.median(times) if times else "")
        print("| %s | %s |" % (moment, " | ".join(cells)))
    paging = dict(os.environ, QUIRE_FRAME_STATS="1")
    out = subprocess.run([quire, "run", thousand, "--page-through", "20"], env=paging, capture_output=True, text=True, timeout=300)
    work = next((line for line in out.stderr.splitlines() if line.startswith("frame work:")), "frame work: none")
    p99 = float(work.split("p99 ")[1].split(" ")[0]) if "p99 " in work else float("inf")
    c, demo, thousand_pages = median["C window"], median["quire, demo (5 pages)"], median["quire, 1,000 pages"]
    checks = [
        ("first frame, demo / C window", "%.2f×" % (demo[0] / c[0]), demo[0] / c[0] <= 1.3, "≤ 1.3×"),
        ("first frame, 1,000 pages / demo", "%.2f×" % (thousand_pages[0] / demo[0]), thousand_pages[0] / demo[0] <= 1.1, "≤ 1.1×"),
        ("peak RSS, demo − C window", "%.1f MiB" % (demo[1] - c[1]), demo[1] - c[1] <= 20, "≤ 20 MiB"),
        ("peak RSS, 1,000 pages − demo", "%.1f MiB" % (thousand_pages[1] - demo[1]), True, "(shown)"),
        ("Quire's work per animation frame, p99 (20 page moves, 1,000 pages)", "%.0f µs" % p99, p99 < 1000, "< 1,000 µs"),
    ]
    print()
    print("| measure | value | target | |")
    print("|---|---|---|---|")
    for name, value, ok, target in checks:
        print("| %s | %s | %s | %s |" % (name, value, target, "ok" if ok else "MISSED"))
    print()
    print(work)
    return 0 if all(ok for _, _, ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
