import GtkBindings
import CGtk
import Glibc
import QuireCore
import QuireGtk
import QuireHarness

/// `{"expectAccessible": TREE}` in `quire run --replay`: the tree the window exposes over AT-SPI,
/// read by a child process (python3 with PyGObject's Atspi) while this process's main loop keeps
/// running — an AT-SPI read from inside the app would wait for answers only this loop gives —
/// and compared with the expectation as `quire test` compares the core's tree
/// (docs/accessibility.md, "The tree a front must expose").
@MainActor
final class AccessibleReplay {
    let driver: ReplayDriver

    init(driver: ReplayDriver) {
        self.driver = driver
    }

    /// How long one read may take, and how many reads a step makes before it fails: a revealer
    /// (an error hiding, the input panel closing) leaves the tree when its slide ends.
    static let readMilliseconds = 15_000
    static let attempts = 6
    static let pause = 200

    /// The failure's lines for step `step`, nothing when the window's tree is `expected`.
    func check(step: Int, expected: [AccessibleElement]) -> [String] {
        var lines: [String] = []
        for attempt in 0..<Self.attempts {
            if attempt > 0 { Toolkit.run(milliseconds: Self.pause) }
            switch read() {
            case .failure(let reason):
                return ["AT-SPI tree: \(reason)"]
            case .success(let (toolkit, actual)):
                let (want, had, note) = Self.comparable(expected: expected, actual: actual, toolkit: toolkit)
                lines = AccessibleCheck.differences(expected: want, actual: had, what: "AT-SPI tree")
                if lines.isEmpty { return [] }
                if let note { lines.append("  (\(note))") }
            }
        }
        return lines
    }

    /// What GTK before 4.10 cannot put on AT-SPI is left out of both trees: the required and
    /// invalid states (its bridge has no STATE_REQUIRED, and the front does not set `invalid`
    /// there, where Orca 43 takes STATE_INVALID for a defunct object), and a slider's value text
    /// (no Value.Text, and the indicator has no description to stand in for it).
    static func comparable(expected: [AccessibleElement], actual: [AccessibleElement], toolkit: String)
        -> ([AccessibleElement], [AccessibleElement], String?)
    {
        let version = toolkit.split(separator: ".").compactMap { Int($0) }
        guard version.count >= 2, (version[0], version[1]) < (4, 10) else { return (expected, actual, nil) }
        func strip(_ tree: [AccessibleElement]) -> [AccessibleElement] {
            tree.map { element in
                var element = element
                element.states.removeAll { $0 == .required || $0 == .invalid }
                if element.role == .slider { element.value = nil }
                return element
            }
        }
        return (
            strip(expected), strip(actual),
            "GTK \(toolkit): the required and invalid states and the indicator's value text are not on AT-SPI before GTK 4.10, and were not compared"
        )
    }

    /// The window's tree, read once by the child; or why it could not be read.
    func read() -> Result<(String, [AccessibleElement]), ReadError> {
        var path: UnsafeMutablePointer<CChar>? = nil
        let descriptor = g_file_open_tmp("quire-accessible-XXXXXX.json", &path, nil)
        guard descriptor >= 0, let path else { return .failure(ReadError("no temporary file for the reader's answer")) }
        close(descriptor)
        let output = String(cString: path)
        g_free(path)
        defer { unlink(output) }
        let session = driver.session
        let rootName = session.chrome.title ?? session.flow.id
        let python = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3"
        let arguments = [python, "-c", Self.reader, String(getpid()), rootName, session.chrome.pageName, output]
        var child: GPid = 0
        let spawned = withCStrings(arguments) { argv in
            g_spawn_async(
                nil, argv, nil, GSpawnFlags(rawValue: G_SPAWN_SEARCH_PATH.rawValue | G_SPAWN_DO_NOT_REAP_CHILD.rawValue), nil, nil,
                &child, nil)
        }
        guard spawned != 0 else { return .failure(ReadError("could not start \(python) to read it")) }
        var status: Int32 = 0
        var reaped = false
        // The loop runs while the child asks this process over AT-SPI.
        Toolkit.run(milliseconds: Self.readMilliseconds) {
            if waitpid(child, &status, WNOHANG) == child { reaped = true }
            return reaped
        }
        if !reaped {
            kill(child, SIGKILL)
            _ = waitpid(child, &status, 0)
            return .failure(ReadError("the reader did not answer within \(Self.readMilliseconds / 1000) s"))
        }
        var contents: UnsafeMutablePointer<CChar>? = nil
        var length = 0
        guard g_file_get_contents(output, &contents, &length, nil) != 0, let contents else {
            return .failure(ReadError("the reader wrote nothing"))
        }
        let text = String(cString: contents)
        g_free(contents)
        guard case .object(let answer)? = try? JSONParser.parse(text).value else {
            return .failure(ReadError("the reader's answer is not JSON: \(text.prefix(200))"))
        }
        if case .string(let error)? = answer["error"] { return .failure(ReadError(error)) }
        guard case .string(let toolkit)? = answer["toolkit"], case .array(let list)? = answer["elements"] else {
            return .failure(ReadError("the reader's answer has no elements"))
        }
        var elements: [AccessibleElement] = []
        for entry in list {
            switch AccessibleElement.parse(entry) {
            case .success(let element): elements.append(element)
            case .failure(let error): return .failure(ReadError("the reader gave \(JSONWriter.string(entry)): \(error.message)"))
            }
        }
        return .success((toolkit, elements))
    }

    struct ReadError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    private func withCStrings<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    /// The reader (python3, PyGObject's Atspi: Debian's python3-gi, gir1.2-atspi-2.0): arguments
    /// PID, the walkthrough's accessible name, the current page's accessible name, the output
    /// file. It walks the application of PID in the walkthrough's subtree, visible nodes only,
    /// from the current page on (the pager, named after the page) — the rows above it (Cancel,
    /// a notice) are not the page's — and writes {"toolkit", "elements"} (or {"error"}):
    /// every label, text, button, check box, slider, spin button, list and list item, without
    /// looking inside a control (a button's own label is its name).
    static let reader = #"""
        from json import dump
        from sys import argv, exit
        pid, root_name, page_name, out = int(argv[1]), argv[2], argv[3], argv[4]
        def emit(answer):
            with open(out, "w", encoding="utf-8") as f:
                dump(answer, f, ensure_ascii=False)
        try:
            from gi import require_version
            require_version("Atspi", "2.0")
            from gi.repository import Atspi
        except Exception as error:
            emit({"error": f"no AT-SPI reader ({error}): install python3-gi and gir1.2-atspi-2.0"})
            exit(0)
        Atspi.set_timeout(3000, 10000)
        app = None
        desktop = Atspi.get_desktop(0)
        for i in range(desktop.get_child_count()):
            try:
                candidate = desktop.get_child_at_index(i)
                if candidate is not None and candidate.get_process_id() == pid and candidate.get_child_count() > 0:
                    app = candidate
            except Exception:
                pass
        if app is None:
            emit({"error": "this process is not on the accessibility bus (none running, or GTK's accessibility is off)"})
            exit(0)
        LEAVES = {"text", "push button", "check box", "slider", "spin button", "list item"}
        ROLES = LEAVES | {"label", "list"}
        elements = []
        where = {"page": False}
        def value_of(acc, role, states):
            if role == "text":
                try:
                    text = Atspi.Text.get_text(acc, 0, Atspi.Text.get_character_count(acc))
                except Exception:
                    text = ""
                return text or None
            if role in ("slider", "spin button"):
                text = None
                try:
                    text = Atspi.Value.get_text(acc)
                except Exception:
                    pass
                return text or acc.get_description() or None
            return None
        def element(acc, role, name, states):
            shown = {"role": role, "name": name}
            value = value_of(acc, role, states)
            if value is not None:
                shown["value"] = value
            kept = []
            if "required" in states:
                kept.append("required")
            if "invalid-entry" in states or "invalid" in states:
                kept.append("invalid")
            if role == "check box" and "checked" in states:
                kept.append("checked")
            if role == "list item" and "selected" in states:
                kept.append("selected")
            if role != "label" and "sensitive" not in states:
                kept.append("disabled")
            if kept:
                shown["states"] = kept
            for relation in acc.get_relation_set() or []:
                if relation.get_relation_type() == Atspi.RelationType.DESCRIBED_BY and relation.get_n_targets() > 0:
                    shown["describedBy"] = relation.get_target(0).get_name() or ""
                    break
            return shown
        def visit(acc, inside):
            try:
                role = acc.get_role_name()
                name = acc.get_name() or ""
                states = {s.value_nick for s in acc.get_state_set().get_states()}
                count = acc.get_child_count()
            except Exception:
                return
            if inside and "visible" not in states:
                return
            if not inside and name == root_name and role not in ("label", "frame", "application"):
                inside = True
            elif inside and not where["page"] and name == page_name and role != "label":
                where["page"] = True
            elif inside and where["page"] and role in ROLES:
                elements.append(element(acc, role, name, states))
                if role in LEAVES:
                    return
            for i in range(count):
                try:
                    child = acc.get_child_at_index(i)
                except Exception:
                    continue
                if child is not None:
                    visit(child, inside)
        try:
            visit(app, False)
        except Exception as error:
            emit({"error": f"reading the tree failed: {error}"})
            exit(0)
        if not where["page"]:
            emit({"error": f"no page named {page_name!r} in the walkthrough {root_name!r}"})
            exit(0)
        emit({"toolkit": app.get_toolkit_version() or "", "elements": elements})
        """#
}
