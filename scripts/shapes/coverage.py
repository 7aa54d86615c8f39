"""`quire coverage merge` and `quire test`'s flows (issue 34): the cost of a coverage file whose
entries name one large flow, of huge counts, and the peak memory of a run over many large flows."""
import json
import os
import sys

from shapes import Case, flow, write_json

# Runs `argv[1:]` and says its peak resident memory (its own, not the bench's other children) on
# standard error as `peak-rss-kib: N`; exits as it did (128 + N for signal N).
MEASURE = r"""
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
sys.stderr.write("peak-rss-kib: %d\n" % usage.ru_maxrss)
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
"""


def measured(argv):
    return [sys.executable, "-c", MEASURE] + argv


def peak_kib(err):
    for line in err.decode(errors="replace").splitlines():
        if line.startswith("peak-rss-kib: "):
            return int(line.split()[1])
    return None


def pages_flow(pages):
    return flow([{"id": f"p{i}", "fields": [{"id": f"f{i}", "kind": "text", "label": "Name"}]} for i in range(pages)])


def merge_short_entries(work, n):
    """A flow of n pages and a coverage file of n entries naming it that list none of them: each
    is refused by its lists' lengths, and the flow is read once (it was read for every entry:
    n × n)."""
    write_json(os.path.join(work, "flow.json"), pages_flow(n))
    write_json(os.path.join(work, "cov.json"),
               {"format": "quire.coverage/1", "flows": [{"file": "flow.json", "id": "shape"}] * n})
    return ["QUIRE", "coverage", "merge", "cov.json"]


def merge_huge_counts(work, n):
    """n whole entries of a 20-page flow, every count 2^53: they add up to 2^53 (saturated), where
    they overflowed Swift's trapping arithmetic (SIGILL)."""
    top = 9007199254740992
    write_json(os.path.join(work, "flow.json"), pages_flow(20))
    entry = {"file": "flow.json", "id": "shape", "scripts": top,
             "pages": [{"id": f"p{i}", "current": top} for i in range(20)],
             "fields": [{"id": f"f{i}", "focused": top, "edited": top, "codes": {}} for i in range(20)],
             "conditions": [], "refusals": {}, "accessory": {"previous": top, "next": top, "done": top},
             "moves": {"button": top, "key": top, "dot": top, "drag": top, "fling": top, "restart": top}}
    write_json(os.path.join(work, "cov.json"), {"format": "quire.coverage/1", "flows": [entry] * n})
    return ["QUIRE", "coverage", "merge", "cov.json", "--coverage-json", "merged.json"]


def check_saturated(code, out, err):
    if code != 0:
        return f"exit {code}: {err.decode(errors='replace')[-300:]}"
    if b"9007199254740992 scripts" not in out:
        return "the scripts count is not saturated at 2^53: " + out.decode(errors="replace")[:200]
    return None


def big_flow(index):
    """About 1.2 MB: 24 pages of 1,000 text fields."""
    pages = [{"id": f"p{page}", "fields": [{"id": f"f{page}_{field}", "kind": "text", "label": "A field"}
                                           for field in range(1000)]} for page in range(24)]
    value = flow(pages)
    value["id"] = f"big{index}"
    return value


def many_big_flows(work, n):
    """n flow files of 1.2 MB, a script each, on one job: peak memory follows the largest flows
    the cache keeps (4 MiB of them), not the sum (200 of them held 1.1 GB)."""
    os.makedirs(os.path.join(work, "s"))
    for index in range(n):
        write_json(os.path.join(work, f"flow{index:03}.json"), big_flow(index))
        write_json(os.path.join(work, "s", f"s{index:03}.json"),
                   {"format": "quire.session/1", "flow": f"../flow{index:03}.json", "steps": [{"key": "End"}]})
    return measured(["QUIRE", "test", "--plain", "--quiet", "--jobs", "1", "s"])


class PeakMemory:
    """The smaller run's peak memory, then the larger's: at most 1.5 × the smaller's + 32 MiB (the
    sum of the flows would be 4 ×), and under `ceiling_mib` at both."""

    def __init__(self, ceiling_mib):
        self.ceiling = ceiling_mib * 1024
        self.first = None

    def __call__(self, code, out, err):
        peak = peak_kib(err)
        if peak is None:
            return "no peak-rss-kib line"
        if peak > self.ceiling:
            return f"peak RSS {peak // 1024} MiB, over {self.ceiling // 1024} MiB"
        if self.first is None:
            self.first = peak
            print(f"        peak RSS {peak // 1024} MiB", end="")
            return None
        first, self.first = self.first, None
        print(f", then {peak // 1024} MiB")
        if peak > first * 1.5 + 32 * 1024:
            return f"peak RSS grew with the number of flows: {first // 1024} MiB, then {peak // 1024} MiB"
        return None


CASES = [
    Case("coverage-merge-short-entries", "n entries naming one n-page flow, none fitting it", "linear", 2000,
         merge_short_entries, exits=(2,)),
    Case("coverage-merge-huge-counts", "n entries of counts 2^53, added up", "linear", 500, merge_huge_counts,
         exits=(0,), check=check_saturated),
    Case("test-many-big-flows-memory", "n flows of 1.2 MB, a script each: peak RSS", "linear", 6, many_big_flows,
         exits=(0, 1), check=PeakMemory(400)),
]
