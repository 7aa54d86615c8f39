// quire-replay.vala — session scripts replayed through quire-1.vapi from Vala; prints each final
// state as JSON, a line per script, as quire-replay (C) does.
//
//   valac --pkg quire-1 quire-replay.vala && ./quire-replay SCRIPT...

string replay (string path) throws Error {
    var parser = new Json.Parser ();
    parser.load_from_file (path);
    var script = parser.get_root ().get_object ();
    var flow = script.get_member ("flow");
    Quire.Session session;
    if (flow.get_value_type () == typeof (string)) {
        session = new Quire.Session.from_file (Path.build_filename (Path.get_dirname (path), flow.get_string ()));
    } else {
        session = new Quire.Session.from_node (flow);
    }
    if (script.has_member ("locale")) {
        session.set_locale (script.get_string_member ("locale"));
    }
    if (script.has_member ("viewport") && script.get_object_member ("viewport").has_member ("width")) {
        session.set_viewport_width (script.get_object_member ("viewport").get_double_member ("width"));
    }
    if (script.has_member ("values")) {
        session.set_starting_values_node (script.get_member ("values"));
    }
    session.reduced_motion = script.has_member ("reducedMotion") && script.get_boolean_member ("reducedMotion");
    foreach (var step in script.get_array_member ("steps").get_elements ()) {
        var object = step.get_object ();
        if (object.has_member ("expect") || object.has_member ("expectEmitted")
            || object.has_member ("expectExactly") || object.has_member ("expectEmittedExactly") || object.has_member ("expectKeyboardFocus")
            || object.has_member ("expectNotice")
            || object.has_member ("expectAnnounced")
            || object.has_member ("expectAccessible")) {
            continue;
        }
        if (object.has_member ("restart")) {
            var reduced_motion = session.reduced_motion;   // a front's setting: not in the snapshot
            session = Quire.Session.restore (session.snapshot_json ());
            session.reduced_motion = reduced_motion;
        } else {
            session.send_node (step);
        }
    }
    return session.get_state_json ();
}

int main (string[] args) {
    int status = 0;
    foreach (var path in args[1:args.length]) {
        try {
            // stdout.printf writes UTF-8 as it is (print() would convert it to the locale's charset).
            stdout.printf ("%s\n", replay (path));
        } catch (Error error) {
            // Quire.Error (the QUIRE_ERROR domain), or a script that is not JSON.
            printerr ("quire-replay.vala: %s: %s\n", path, error.message);
            stdout.printf ("null\n");
            status = 2;
        }
    }
    return status;
}
