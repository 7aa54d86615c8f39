#!/usr/bin/env python3
"""Measures `quire run` against a minimal C GTK 4 window (run by scripts/measure-gtk inside Xvfb
and a session bus): time to the first painted frame and peak resident memory for the demo flow,
a 1,000-page flow, a page of 320 fields and the C window (runs alternate), and Quire's own work per
animation frame while paging through the 1,000-page flow. Prints Markdown tables and checks the
targets; exits 1 when one is missed.

  measure.py QUIRE C_WINDOW THOUSAND_PAGES LONG_PAGE RUNS
  measure.py --long-page QUIRE C_WINDOW LONG_PAGE RUNS     (scripts/bench-gtk-page: that page's budget alone)

Standard library only."""
import json
import os
import statistics
import subprocess
import sys
import time

# The page of issue 33: 320 fields of the four kinds in turn, every fifth required.
LONG_PAGE_FIELDS = 320


def write_long_page(path):
    kinds = ["text", "toggle", "duration", "choice"]
    fields = []
    for index in range(LONG_PAGE_FIELDS):
        field = {"id": "f%d" % index, "kind": kinds[index % 4], "label": "Question %d" % (index + 1)}
        if field["kind"] == "text":
            field["placeholder"] = "Answer %d" % (index + 1)
        if field["kind"] == "choice":
            field["options"] = [{"id": "yes", "label": "Yes"}, {"id": "no", "label": "No"}, {"id": "maybe", "label": "Maybe"}]
        if field["kind"] == "duration":
            field["minuteInterval"] = 5
        if index % 5 == 0:
            field["required"] = True
        fields.append(field)
    page = {"id": "form", "title": "A long form", "body": "%d questions." % LONG_PAGE_FIELDS, "fields": fields}
    with open(path, "w") as f:
        json.dump({"format": "quire.flow/1", "id": "long-page", "title": "One page of %d fields" % LONG_PAGE_FIELDS,
                   "pages": [page]}, f)


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


def settled_peak_rss(command, quiet_s=0.5, cap_s=20):
    """Peak resident memory (VmHWM, MiB) of `quire run` once it has settled: started without
    --exit-after-first-frame, watched from its first frame until its resident memory has not
    changed for `quiet_s` (what is built when the loop is idle is built by then), then ended."""
    env = dict(os.environ, QUIRE_MEASURE_T0_US=str(time.monotonic_ns() // 1000))
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        for line in process.stdout:
            if line.startswith("first-frame-ms"):
                break
        else:
            raise SystemExit("no first frame from %s" % " ".join(command))

        def status(key):
            with open("/proc/%d/status" % process.pid) as f:
                return next(int(l.split()[1]) for l in f if l.startswith(key))
        last, since, started = status("VmRSS:"), time.monotonic(), time.monotonic()
        while time.monotonic() - since < quiet_s and time.monotonic() - started < cap_s:
            time.sleep(0.05)
            now = status("VmRSS:")
            if now != last:
                last, since = now, time.monotonic()
        return status("VmHWM:") / 1024
    finally:
        process.kill()
        process.wait()


def table(samples):
    """Prints each program's first frame and peak memory; returns their medians by name."""
    print("| program | first frame ms, median (min–max) | peak RSS MiB, median |")
    print("|---|---|---|")
    median = {}
    for name, values in samples.items():
        frames = [v["first-frame-ms"] for v in values]
        rss = [v["peak-rss-mib"] for v in values]
        median[name] = (statistics.median(frames), statistics.median(rss))
        print("| %s | %.1f (%.1f–%.1f) | %.1f |" % (name, median[name][0], min(frames), max(frames), median[name][1]))
    return median


def sample(commands, runs):
    for command in commands.values():  # warm-up: caches, fonts
        run_once(command)
    samples = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            samples[name].append(run_once(command))
    return samples


def long_page_checks(quire, long_page, runs, frames, demo_name):
    """The page of 320 fields against the demo: its first frame, and its peak memory once every
    row is built (medians of alternating settled runs)."""
    settled = {"demo": [], "long": []}
    for _ in range(max(3, runs // 2)):
        settled["demo"].append(settled_peak_rss([quire, "run"]))
        settled["long"].append(settled_peak_rss([quire, "run", long_page]))
    demo_rss, long_rss = statistics.median(settled["demo"]), statistics.median(settled["long"])
    print()
    print("Settled peak RSS (every row built), median of %d: demo %.1f MiB, 320 fields %.1f MiB" % (
        len(settled["demo"]), demo_rss, long_rss))
    long_frame, demo_frame = frames["quire, 320 fields on one page"], frames[demo_name]
    return [
        # The budget, 0.3 s, is about 3× the demo's first frame on this project's machine; the page
        # measures 1.1–1.2× (docs/performance.md, "A page of 320 fields").
        ("first frame, 320 fields on one page / demo", "%.2f×" % (long_frame / demo_frame), long_frame / demo_frame <= 2.0, "≤ 2×"),
        ("peak RSS settled, 320 fields / demo", "%.2f×" % (long_rss / demo_rss), long_rss / demo_rss <= 1.5, "≤ 1.5×"),
    ]


def print_checks(checks):
    print()
    print("| measure | value | target | |")
    print("|---|---|---|---|")
    for name, value, ok, target in checks:
        print("| %s | %s | %s | %s |" % (name, value, target, "ok" if ok else "MISSED"))


def long_page_main(quire, c_window, long_page, runs):
    write_long_page(long_page)
    commands = {
        "C window": [c_window],
        "quire, demo (5 pages)": [quire, "run", "--exit-after-first-frame"],
        "quire, 320 fields on one page": [quire, "run", long_page, "--exit-after-first-frame"],
    }
    median = table(sample(commands, runs))
    frames = {name: value[0] for name, value in median.items()}
    checks = long_page_checks(quire, long_page, runs, frames, "quire, demo (5 pages)")
    c, long_frame = frames["C window"], frames["quire, 320 fields on one page"]
    checks.insert(1, ("first frame, 320 fields on one page / C window", "%.2f×" % (long_frame / c), True, "(shown)"))
    print_checks(checks)
    return 0 if all(ok for _, _, ok, _ in checks) else 1


def main():
    if sys.argv[1] == "--long-page":
        return long_page_main(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    quire, c_window, thousand, long_page, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
    write_long_page(long_page)
    commands = {
        "C window": [c_window],
        "quire, demo (5 pages)": [quire, "run", "--exit-after-first-frame"],
        "quire, 1,000 pages": [quire, "run", thousand, "--exit-after-first-frame"],
        "quire, 320 fields on one page": [quire, "run", long_page, "--exit-after-first-frame"],
    }
    samples = sample(commands, runs)
    median = table(samples)
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
    long_page_frame = median["quire, 320 fields on one page"][0]
    checks = [
        ("first frame, demo / C window", "%.2f×" % (demo[0] / c[0]), demo[0] / c[0] <= 1.3, "≤ 1.3×"),
        ("first frame, 1,000 pages / demo", "%.2f×" % (thousand_pages[0] / demo[0]), thousand_pages[0] / demo[0] <= 1.1, "≤ 1.1×"),
        ("peak RSS, demo − C window", "%.1f MiB" % (demo[1] - c[1]), demo[1] - c[1] <= 20, "≤ 20 MiB"),
        ("peak RSS, 1,000 pages − demo", "%.1f MiB" % (thousand_pages[1] - demo[1]), True, "(shown)"),
        ("Quire's work per animation frame, p99 (20 page moves, 1,000 pages)", "%.0f µs" % p99, p99 < 1000, "< 1,000 µs"),
        # Issue 33: ≤ 0.3 s on this project's 2-core machine, where the C window takes 75–85 ms.
        ("first frame, 320 fields on one page / C window", "%.2f×" % (long_page_frame / c[0]), long_page_frame / c[0] <= 3.5,
         "≤ 3.5× (0.3 s)"),
    ]
    checks += long_page_checks(quire, long_page, runs, {name: value[0] for name, value in median.items()}, "quire, demo (5 pages)")
    print_checks(checks)
    print()
    print(work)
    return 0 if all(ok for _, _, ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
