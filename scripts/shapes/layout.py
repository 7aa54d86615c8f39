"""A layout's cost follows its size: attributes on one element, and one layout named by many pages."""
import os

from shapes import Case, flow, write_json


def layout_flow(work, pages):
    write_json(f"{work}/flow.json", flow([
        {"id": f"p{i}", "title": "P", "layout": "p.ui", "fields": [{"id": f"name{i}", "kind": "text"}]} for i in range(pages)
    ]))


def many_attributes(work, n):
    # n elements of 1,000 attributes each (refused for their names, read in linear time).
    attrs = " ".join(f'a{i}="x"' for i in range(1000))
    objects = "\n".join(f'<child><object class="GtkLabel" {attrs}/></child>' for _ in range(n))
    with open(f"{work}/p.ui", "w") as f:
        f.write(f'<interface><object class="GtkBox" id="page:root">{objects}<child><object class="GtkEntry" id="name0"/></child></object></interface>')
    layout_flow(work, 1)
    return ["QUIRE", "check", "-q", "flow.json"]


def named_by_many_pages(work, n):
    # One 200 KB layout named by n pages: read and checked once, bound per page.
    labels = "\n".join(f'<child><object class="GtkLabel"><property name="label">{"x" * 150}</property></object></child>' for _ in range(900))
    with open(f"{work}/p.ui", "w") as f:
        f.write(f'<interface><object class="GtkBox" id="page:root">{labels}</object></interface>')
    layout_flow(work, n)
    return ["QUIRE", "check", "-q", "flow.json"]


CASES = [
    Case("layout-many-attributes", "elements of 1,000 attributes each in one layout", "linear", 25, many_attributes, exits=(2,)),
    Case("layout-named-by-many-pages", "a 200 KB layout named by every page", "linear", 50, named_by_many_pages, exits=(2,)),
]
