"""`quire map --format svg` on flows made to cost Graphviz's dot: a run of pages that may be
hidden (a fan of edges took dot 232 s at 100 pages; now one edge a run), and a flow past the
pages --format svg draws (refused at the first page past them)."""
import os

from . import Case, flow, write_json


def conditional_pages(work, n):
    # A toggle, then n pages shown only when it is on, then a last page.
    pages = [{"id": "start", "fields": [{"id": "on", "kind": "toggle"}]}]
    pages += [{"id": "p%d" % i, "title": "Page %d" % i, "visibleIf": {"field": "on", "equals": True}} for i in range(n)]
    pages.append({"id": "last"})
    write_json(os.path.join(work, "flow.json"), flow(pages))
    return ["QUIRE", "map", "--format", "svg", "-o", "map.svg", "flow.json"]


def many_pages(work, n):
    pages = [{"id": "p%d" % i} for i in range(n)]
    write_json(os.path.join(work, "flow.json"), flow(pages))
    return ["QUIRE", "map", "--format", "svg", "-o", "map.svg", "flow.json"]


CASES = [
    Case("map-svg-conditional-pages", "a run of n pages that may be hidden, drawn by dot", "linear", 25, conditional_pages,
         exits=(0,)),
    Case("map-svg-too-many-pages", "n > 500 pages: --format svg refused at the 501st", "refused", 600, many_pages,
         message="$.pages[500]: --format svg draws at most 500 pages"),
]
