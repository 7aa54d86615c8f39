#!/usr/bin/env -S gjs -m
// quire-replay.js — session scripts replayed through Quire-1.0 from GJS; prints each final state
// as JSON, a line per script, as quire-replay (C) does.
//
//   gjs -m quire-replay.js SCRIPT...
import GLib from 'gi://GLib';
import Quire from 'gi://Quire?version=1.0';
import System from 'system';

function replay(path) {
    const [, bytes] = GLib.file_get_contents(path);
    const script = JSON.parse(new TextDecoder().decode(bytes));
    let session = typeof script.flow === 'string'
        ? Quire.Session.new_from_file(GLib.build_filenamev([GLib.path_get_dirname(path), script.flow]))
        : Quire.Session.new_from_json(JSON.stringify(script.flow));
    if (script.locale !== undefined)
        session.set_locale(script.locale);
    if (script.viewport?.width !== undefined)
        session.set_viewport_width(script.viewport.width);
    if (script.values !== undefined)
        session.set_starting_values(JSON.stringify(script.values));
    session.reduced_motion = script.reducedMotion ?? false;
    for (const step of script.steps) {
        if ('expect' in step || 'expectEmitted' in step || 'expectExactly' in step || 'expectEmittedExactly' in step
            || 'expectKeyboardFocus' in step || 'expectNotice' in step || 'expectAnnounced' in step
            || 'expectAccessible' in step)
            continue;
        if ('restart' in step) {
            const reducedMotion = session.reduced_motion;   // a front's setting: not in the snapshot
            session = Quire.Session.restore(session.snapshot_json());
            session.reduced_motion = reducedMotion;
        } else
            session.send(JSON.stringify(step));
    }
    return session.get_state_json();
}

let status = 0;
for (const path of ARGV) {
    try {
        print(replay(path));
    } catch (error) {
        // GLib.Error in the Quire.Error domain, or a script that is not JSON.
        printerr(`quire-replay.js: ${path}: ${error.message}`);
        print('null');
        status = 2;
    }
}
System.exit(status);
