"""Cases for scripts/bench-shapes. Each module in this folder defines CASES = [Case(...), ...].

A Case: `name`; `what` (one line); `shape`: "linear" (cost follows the document) or "refused"
(exit 2 naming `message`, at both sizes); `n`: the smaller size; `write(dir, n) -> argv`: writes the
document(s) for size n into dir and returns the command, with "QUIRE" standing for the binary;
`exits`: the exit codes a linear case may give (default 0, 1 or 2); `check(code, out, err)`:
optional, returns a problem or None."""
import dataclasses
import importlib
import json
import os
import pkgutil
from typing import Callable, Optional


@dataclasses.dataclass
class Case:
    name: str
    what: str
    shape: str
    n: int
    write: Callable[[str, int], list]
    message: str = ""
    exits: tuple = (0, 1, 2)
    check: Optional[Callable] = None


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False)


def flow(pages, **extra):
    """A flow with `pages` and the paging settings spelled out."""
    value = {"format": "quire.flow/1", "id": "shape", "title": "Shape",
             "paging": {"wrap": False, "swipe": True, "gate": "none", "animationMs": 0}, "pages": pages}
    value.update(extra)
    return value


def load_cases():
    cases = []
    here = os.path.dirname(__file__)
    for module in sorted(m.name for m in pkgutil.iter_modules([here])):
        cases += importlib.import_module(f"shapes.{module}").CASES
    return cases
