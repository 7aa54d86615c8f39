#!/usr/bin/env python3
"""A Quire flow on the terminal, through PyGObject: `from gi.repository import Quire`.

    quire-flow.py FLOW [--locale TAG]   ask each page's questions until the flow completes, then
                                        print the result as JSON (end of input cancels)
    quire-flow.py --replay SCRIPT...    replay session scripts headlessly and print each final
                                        state as JSON, a line per script, as quire-replay does

The terminal is a front like any other: it shows what the presentation says (titles, labels,
display strings, errors, in the session's locale) and turns answers into the events a GUI would
send — taps, typing, wheel spins, Return — so the session decides everything (validation, the
gate, which pages exist).

Needs the Quire-1.0 typelib (GI_TYPELIB_PATH when it is not installed system-wide) and
Debian's python3-gi.
"""
import argparse
import json
import os
import sys

import gi

gi.require_version("Json", "1.0")
gi.require_version("Quire", "1.0")
from gi.repository import GLib, Json, Quire  # noqa: E402


def send(session, event):
    session.send(json.dumps(event))


def node(value):
    """A JsonNode (json-glib) as Python data."""
    return None if value is None else json.loads(Json.to_string(value, False))


def state(session):
    return json.loads(session.get_state_json())


def chrome(session):
    return json.loads(session.get_presentation_json())["chrome"]


def page(session):
    return node(session.get_page_presentation(session.props.page_index))


def field(session, field_id):
    return next((f for f in page(session)["fields"] if f["id"] == field_id), None)


def ask(prompt):
    """A line from the user; None at the end of input."""
    try:
        return input(prompt).strip()
    except EOFError:
        return None


def answer_text(session, shown):
    answer = ask(f"{shown['label']} [{shown['display'] or shown['placeholder']}]: ")
    if not answer:
        return answer
    send(session, {"tap": shown["id"]})
    # Clear the text as a keyboard would, one grapheme cluster at a time.
    while state(session)["values"].get(shown["id"]):
        send(session, {"key": "BackSpace"})
    send(session, {"type": answer})
    send(session, {"tap": "background"})
    return answer


def answer_choice(session, shown):
    send(session, {"tap": shown["id"]})
    options = chrome(session)["input"]["options"]
    listed = "  ".join(f"{n}) {o['label']}{'*' if o['selected'] else ''}" for n, o in enumerate(options, 1))
    answer = ask(f"{shown['label']}: {listed}: ")
    if answer and answer.isdigit() and 1 <= int(answer) <= len(options):
        send(session, {"select": options[int(answer) - 1]["id"]})
        send(session, {"key": "Return"})
    else:
        send(session, {"key": "Escape"})
    return answer


def answer_duration(session, shown):
    send(session, {"tap": shown["id"]})
    wheels = chrome(session)["input"]["wheels"]
    units = ":".join({"hours": "h", "minutes": "mm", "seconds": "ss"}[w["component"]] for w in wheels)
    answer = ask(f"{shown['label']} [{shown['display'] or shown['placeholder']}] ({units}): ")
    parts = answer.split(":") if answer else []
    if len(parts) == len(wheels) and all(p.isdigit() for p in parts):
        for number, part in enumerate(parts):
            # Turn each wheel to the nearest value it shows (minutes go in steps), reading the
            # wheels again each time: the draft snaps into the field's min and max as they turn.
            wheel = chrome(session)["input"]["wheels"][number]
            values = wheel["values"]
            target = min(range(len(values)), key=lambda i: abs(values[i] - int(part)))
            if target != wheel["selectedIndex"]:
                send(session, {"spin": {"component": wheel["component"], "by": target - wheel["selectedIndex"]}})
        send(session, {"key": "Return"})
    else:
        send(session, {"key": "Escape"})
    return answer


def answer_toggle(session, shown):
    answer = ask(f"{shown['label']} [{shown['display']}] (y/n): ")
    if answer and answer[0].lower() in "yn" and (answer[0].lower() == "y") != shown["isOn"]:
        send(session, {"tap": shown["id"]})
    return answer


ANSWER = {"text": answer_text, "choice": answer_choice, "duration": answer_duration, "toggle": answer_toggle}


def fake_server(session, page, values, cancellable, loop):
    """A page with `apply`: a fake server (a GLib timeout of 300 ms) accepts the answers unless the
    apply was stopped first (the cancellable). A real host would save or check `values` here."""
    print(f"  (page {page}: sending {len(node(values))} answers…)")

    def answer():
        if not cancellable.is_cancelled():
            session.apply_finish(page, None, None)
        loop.quit()
        return GLib.SOURCE_REMOVE

    GLib.timeout_add(300, answer)


def run_flow(path, locale):
    session = Quire.Session.new_from_file(path)
    session.props.locale = locale
    loop = GLib.MainLoop()
    session.connect("apply-requested", fake_server, loop)
    session.connect("notification::refused", lambda _s, _name, payload: print(
        "  (not yet: " + ", ".join(f"{f} {e}" for f, e in node(payload)["errors"].items()) + ")"))
    while not session.props.completed:
        shown = page(session)
        print(f"\n== {shown['title'] or shown['id']} ({shown['index'] + 1}/{session.props.page_count})")
        if shown["body"]:
            print(shown["body"])
        asked = set()
        # Fields come and go with the answers: look again after each one.
        while (current := next((f for f in page(session)["fields"] if f["id"] not in asked), None)) is not None:
            asked.add(current["id"])
            if not current["enabled"]:
                continue
            if ANSWER[current["kind"]](session, current) is None:
                send(session, {"tap": "button:cancel"})
                break
            now = field(session, current["id"])
            if now and now["error"]:
                print(f"  {now['label']}: {now['error']}")
        if session.props.completed:
            break
        buttons = {b["button"]: b["enabled"] for b in chrome(session)["buttons"]}
        send(session, {"tap": "button:finish" if buttons["finish"] else "button:next"})
        # While the host applies the page, the main loop runs until it answers.
        if state(session)["applying"] is not None:
            loop.run()
        send(session, {"settle": True})
    print(json.dumps(node(session.get_result()), ensure_ascii=False))


def replay(script_path):
    """What quire-replay does, in Python: events in order, `restart` through a snapshot."""
    with open(script_path, encoding="utf-8") as file:
        script = json.load(file)
    flow = script["flow"]
    if isinstance(flow, str):
        session = Quire.Session.new_from_file(os.path.join(os.path.dirname(script_path), flow))
    else:
        session = Quire.Session.new_from_json(json.dumps(flow))
    if "locale" in script:
        session.set_locale(script["locale"])
    if "width" in script.get("viewport", {}):
        session.set_viewport_width(script["viewport"]["width"])
    if "values" in script:
        session.set_starting_values(json.dumps(script["values"]))
    session.props.reduced_motion = script.get("reducedMotion", False)
    for step in script["steps"]:
        if "expect" in step or "expectEmitted" in step or "expectExactly" in step or "expectEmittedExactly" in step \
                or "expectKeyboardFocus" in step or "expectNotice" in step or "expectAnnounced" in step \
                or "expectAccessible" in step:
            continue
        if "restart" in step:
            reduced_motion = session.props.reduced_motion   # a front's setting: not in the snapshot
            session = Quire.Session.restore(session.snapshot_json())
            session.props.reduced_motion = reduced_motion
            continue
        session.send(json.dumps(step))
    print(session.get_state_json())


def main():
    parser = argparse.ArgumentParser(description="A Quire flow on the terminal, through PyGObject.")
    parser.add_argument("flow", nargs="?", help="a flow file (quire.flow/1)")
    parser.add_argument("--locale", default="en", help="the language of the questions (en, ja)")
    parser.add_argument("--replay", metavar="SCRIPT", nargs="+", help="replay session scripts; print their final states")
    options = parser.parse_args()
    if (options.flow is None) == (options.replay is None):
        parser.error("give a FLOW, or --replay SCRIPT...")
    status = 0
    for script in options.replay or [None]:
        try:
            if script is not None:
                replay(script)
            else:
                run_flow(options.flow, options.locale)
        except GLib.Error as error:
            # Quire's errors are GErrors in the QUIRE_ERROR domain.
            print(f"quire-flow: {script or options.flow}: {error.message}", file=sys.stderr)
            if script is not None:
                print("null")
            status = 2
    sys.exit(status)


if __name__ == "__main__":
    main()
