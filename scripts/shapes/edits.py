"""An `edit` step costs what it changes, not the field's whole text."""
from shapes import Case, flow, write_json


def edits(work, n):
    write_json(f"{work}/flow.json", flow([{"id": "p", "title": "P", "fields": [{"id": "note", "kind": "text", "label": "Note"}]}]))
    steps = [{"tap": "note"}]
    chunk = "abcdefghij" * 10
    for i in range(n):
        steps.append({"edit": {"range": [i * 100, i * 100], "text": chunk}})
    steps.append({"expect": {"values": {"note": {}}}} if False else {"expect": {"focus": "note"}})
    write_json(f"{work}/edits.json", {"format": "quire.session/1", "name": "edits", "flow": "flow.json", "steps": steps})
    return ["QUIRE", "test", "--quiet", "edits.json"]


def edits_in_the_middle(work, n):
    write_json(f"{work}/flow.json", flow([{"id": "p", "title": "P", "fields": [{"id": "note", "kind": "text", "label": "Note"}]}]))
    steps = [{"tap": "note"}]
    for i in range(n):
        steps.append({"edit": {"range": [i * 5, i * 5], "text": "é👍🏽x\u0301y"}})
    write_json(f"{work}/edits.json", {"format": "quire.session/1", "name": "edits", "flow": "flow.json", "steps": steps})
    return ["QUIRE", "test", "--quiet", "edits.json"]


CASES = [
    Case("edit-steps-at-the-end", "appending edits of 100 characters to one field (a 4 MB script at 4n)", "linear", 10_000, edits, exits=(0,)),
    Case("edit-steps-mid-text", "edits of clusters at a moving cursor inside the text", "linear", 10_000, edits_in_the_middle, exits=(0,)),
]
