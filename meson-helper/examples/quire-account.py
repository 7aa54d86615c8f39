#!/usr/bin/env python3
"""A page that applies its answers through the host, from Python: the account page of
data/flows/account-apply.json, with a fake server (a GLib timeout) that says the name "admin" is
taken. Prints what happened, a line each, and the page it ends on.

    quire-account.py FLOW
"""
import json
import sys

import gi

gi.require_version("Json", "1.0")
gi.require_version("Quire", "1.0")
from gi.repository import GLib, Json, Quire  # noqa: E402

session = Quire.Session.new_from_file(sys.argv[1])
loop = GLib.MainLoop()


def fake_server(session, page, values, cancellable):
    name = json.loads(Json.to_string(values, False)).get("userName")

    def answer():
        if not cancellable.is_cancelled():
            if name == "admin":
                session.apply_finish(page, json.dumps({"userName": {"code": "taken", "message": "That name is taken"}}), None)
            else:
                session.apply_finish(page, None, None)
        loop.quit()
        return GLib.SOURCE_REMOVE

    GLib.timeout_add(50, answer)


def send(event):
    session.send(json.dumps(event))


def state():
    return json.loads(session.get_state_json())


def next_page():
    send({"tap": "button:next"})
    if state()["applying"] is not None:
        loop.run()
    send({"settle": True})


session.connect("apply-requested", fake_server)
next_page()
send({"tap": "userName"})
send({"type": "admin"})
next_page()
print("admin: " + json.dumps(state()["errors"], separators=(",", ":")))
send({"tap": "userName"})
for _ in range(5):
    send({"key": "BackSpace"})
send({"type": "aki"})
next_page()
print("page: " + session.props.page_id)
sys.exit(0 if session.props.page_id == "created" else 1)
