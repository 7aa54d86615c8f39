"""`quire check`'s lint and loader on documents made to cost: missing texts in thousands of
locales, large conditions, a display string of thousands of tags, thousands of unknown keys."""
import os

from . import Case, flow, write_json


def locales(work, n):
    # n titles, each in English and a language of its own: each lacks n - 1 tags.
    pages = [{"id": "p%d" % i, "title": {"en": "x", "en-%x" % i: "y"}} for i in range(n)]
    write_json(os.path.join(work, "flow.json"), flow(pages))
    return ["QUIRE", "check", "-q", "flow.json"]


def conditions(work, n):
    # 8 toggles (6,561 combinations) and n fields whose enabledIf is `any` of 12 clauses never
    # true: evaluated whole for every combination until the flow's steps are spent.
    toggles = [{"id": "t%d" % i, "kind": "toggle"} for i in range(8)]
    clause = [{"all": [{"field": "t%d" % (j % 8), "equals": True}, {"field": "t%d" % (j % 8), "equals": False}]} for j in range(12)]
    fields = [{"id": "f%d" % k, "kind": "toggle", "enabledIf": {"any": clause}} for k in range(n)]
    write_json(os.path.join(work, "flow.json"), flow([{"id": "a", "fields": toggles}, {"id": "b", "fields": fields}]))
    return ["QUIRE", "check", "-q", "flow.json"]


def tags(work, n):
    # One title in n languages.
    pages = [{"id": "p", "title": {"en-%x" % i: "y" for i in range(n)}}]
    write_json(os.path.join(work, "flow.json"), flow(pages))
    return ["QUIRE", "check", "-q", "flow.json"]


def unknown_keys(work, n):
    page = {"id": "p"}
    for i in range(n):
        page["unknownkey%d" % i] = 1
    write_json(os.path.join(work, "flow.json"), flow([page]))
    return ["QUIRE", "check", "-q", "flow.json"]


CASES = [
    Case("lint-missing-texts", "n strings each in a language of its own: a bounded warning each", "linear", 2000, locales),
    Case("lint-large-conditions", "n fields with conditions evaluated whole: bounded in steps", "linear", 10, conditions),
    Case("load-many-tags", "a title in n languages: a lookup a tag", "linear", 5000, tags),
    Case("load-unknown-keys", "a page of n unknown keys: a lookup a key", "linear", 5000, unknown_keys),
]
