#!/usr/bin/env python3
"""Checks a run of the benchmark suite (Benchmarks/, exported with `--format influx`) against
its budgets: allocation counts exactly, times as ratios between rows measured side by side in the
same run (so a slower or busier machine moves both sides), each with the noise margin of
docs/performance.md. Prints a table (with --write FILE, also between FILE's bench-table markers);
exits 1 when a guard fails.

  scripts/bench_budgets.py RESULTS.influx.csv [--margin 0.35] [--write docs/performance.md]

Standard library only. Used by scripts/bench-check (CI) and scripts/bench.
"""
import csv
import os
import subprocess
import time
import sys

# What each row may allocate, per iteration (1,000 events for per-event rows; one operation for
# the others), over the "empty" row (the measuring's own allocations). Exact: a rise fails.
# Issue 22's ceiling: Tab, type, BackSpace, dragUpdate and tick allocate nothing.
ALLOCATIONS = {
    "Tab send(_:into:) 10 fields": 0,
    "Tab send(_:into:) 50000 fields": 0,
    "Toggle with conditions 10 fields": 0,
    "Toggle with conditions 50000 fields": 0,
    "dragUpdate 10 fields": 0,
    "dragUpdate 50000 fields": 0,
    "type + BackSpace short text": 0,
    "type + BackSpace text over 15 bytes": 0,
    "tick during an animation": 0,
    # The convenience form returns a new array and grows it: 2.8 allocations a Tab on average (a
    # Tab past the last field emits two notifications, not three; issue 22's run, exact).
    "Tab send(_:) 10 fields": 2800,
}


def load(path):
    values = {}
    with open(path, newline="") as f:
        rows = [line for line in f if not line.startswith("#")]
    for row in csv.DictReader(rows):
        try:
            values[(row["test"], row["metric"], float(row["percentile"]))] = float(row["value"])
        except (KeyError, ValueError):
            continue
    return values


def write_table(path, table):
    """Replaces what stands between the bench-table markers in `path` with this run's table."""
    begin, end = "<!-- bench-table:begin -->", "<!-- bench-table:end -->"
    text = open(path, encoding="utf-8").read()
    if begin not in text or end not in text:
        raise SystemExit("bench_budgets: %s has no %s … %s block" % (path, begin, end))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    load = os.getloadavg()[0]
    stamp = "Written by `scripts/bench-check` on %s (commit %s, load average %.1f on %d cores): the short run, side by side." % (
        time.strftime("%Y-%m-%d"), commit or "?", load, os.cpu_count() or 0)
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(head + begin + "\n" + stamp + "\n\n" + table + "\n" + end + tail)


def main():
    args = sys.argv[1:]
    margin = 0.35
    write = None
    if "--write" in args:
        at = args.index("--write")
        write = args[at + 1]
        del args[at:at + 2]
    if "--margin" in args:
        at = args.index("--margin")
        margin = float(args[at + 1])
        del args[at:at + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    values = load(args[0])
    tests = sorted({test for test, _, _ in values})

    def value(test, metric="Time(wallclock)", percentile=50.0):
        key = (test, metric, percentile)
        if key not in values:
            raise SystemExit("bench_budgets: no %s p%g for '%s' in the results (tests: %s)" % (metric, percentile, test, ", ".join(tests)))
        return values[key]

    def find(prefix):
        matches = [test for test in tests if test.startswith(prefix)]
        if len(matches) != 1:
            raise SystemExit("bench_budgets: %d rows start with '%s'" % (len(matches), prefix))
        return matches[0]

    failures = 0
    lines = []

    def report(name, shown, target, ok, goal=None, met=None):
        """A guarded figure; `goal` is issue 9's budget where the guard is looser (met or missed, not failing)."""
        nonlocal failures
        if not ok:
            failures += 1
        note = "" if goal is None else " (budget %s: %s)" % (goal, "met" if met else "missed")
        lines.append("| %s | %s | %s%s | %s |" % (name, shown, target, note, "ok" if ok else "FAILED"))

    empty = value("empty", "Malloc(total)")
    for test, allowed in ALLOCATIONS.items():
        if (test, "Malloc(total)", 50.0) not in values:
            continue  # a row the short run leaves out
        counted = value(test, "Malloc(total)") - empty
        report("allocations, %s (per 1,000 events)" % test, "%g" % counted, "≤ %d, exact" % allowed, counted <= allowed)
        if counted < allowed:
            lines.append("|  (fewer than budgeted: lower the budget in scripts/bench_budgets.py) | | | |")

    grow = 1 + margin

    def ratios(prefix):
        return [t for t in tests if t.startswith("ratio: " + prefix)]

    def measured(test):
        return value(test, "ratiox1000") / 1000

    # Flat in the size of the flow: the largest against the smallest, side by side (issue 22: within
    # 10%, plus the noise margin; the per-event nanosecond budgets are retired, and the
    # 2,000-instruction ceiling is counted by scripts/bench-instructions).
    for row in ("Tab send(_:into:)", "Toggle with conditions", "dragUpdate"):
        for test in ratios(row + " "):
            r = measured(test)
            report(test[len("ratio: "):], "%.2f×" % r, "≤ 1.1× (flat) +%d%%" % (margin * 100), r <= 1.1 * grow)
    # Linear in the size: N times the fields (scripts) costs at most N × 1.2.
    for prefix in ("snapshot + restore", "quire test"):
        for test in ratios(prefix):
            words = test.split()
            slash = words.index("/")
            times = float(words[slash - 1]) / float(words[slash + 1])
            r = measured(test)
            report(test[len("ratio: "):], "%.2f×" % r, "≤ %.1f× (linear, +20%%) +%d%%" % (times * 1.2, margin * 100),
                   r <= times * 1.2 * grow)
    # Loading: the baselines' time over Quire's (higher is faster). Guarded at the level reached;
    # issue 9's budgets (3× json-glib, 2× JSONDecoder) are shown met or missed.
    # json-glib: 2.3× is the level the one flow reader of issue 22 reached (2.26–3.10× side by side);
    # the 3× budget is retired and shown for information only (docs/performance.md, "The budgets").
    for name, guard, budget in (("json-glib", 2.3, 3.0), ("JSONDecoder", 2.0, 2.0), ("JSONSerialization", 4.0, None)):
        for test in ratios("load %s " % name):
            r = measured(test)
            report("loading the large flow, %s / Quire" % name, "%.2f×" % r, "≥ %.2f× −%d%%" % (guard, margin * 100),
                   r >= guard / grow, None if budget is None else "≥ %.0f×" % budget, budget is not None and r >= budget)
    # Hostile inputs cost a bounded multiple of parsing them; a huge word costs no more than a short one.
    for test in ratios("hostile: "):
        r = measured(test)
        report(test[len("ratio: hostile: "):], "%.1f×" % r, "≤ 25× +%d%%" % (margin * 100), r <= 25 * grow)
    for test in ratios("did you mean"):
        r = measured(test)
        report(test[len("ratio: "):], "%.2f×" % r, "≤ 1× +%d%%" % (margin * 100), r <= 1 * grow)

    table = "\n".join(["| budget | this run | guard | |", "|---|---|---|---|"] + lines)
    print(table)
    if write:
        write_table(write, table)
    if failures:
        print("\n%d budget%s failed" % (failures, "" if failures == 1 else "s"))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
