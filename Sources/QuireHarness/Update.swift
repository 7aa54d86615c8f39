import Foundation
import QuireCore

/// `quire test --update`: each failing `expect`, `expectExactly`, `expectEmitted`,
/// `expectEmittedExactly`, `expectKeyboardFocus`, `expectNotice`, `expectAnnounced` and
/// `expectAccessible` is rewritten in place with what the session did, and every other byte of the script is left as
/// it was. The session is deterministic and does not depend on what a script expects, so a run
/// that goes on past failing expectations sees exactly what a run of the rewritten script sees.
public struct Rewrite: Sendable, Hashable {
    /// The step (0-based).
    public var step: Int
    /// The step's key (`expect`, …).
    public var key: String
    /// Its new value.
    public var value: JSONValue
}

public enum Update {
    // MARK: What the session did, in the expectation's own terms

    /// `expected` made true of `actual`: what already matches is kept as written (the keys an
    /// `expect` leaves out stay out, numbers within the tolerance stay as they are), the rest
    /// takes the actual value. Nil when `actual` has no such key (the key is dropped).
    static func project(_ expected: JSONValue, _ actual: JSONValue?, exactly: Bool) -> JSONValue? {
        guard let actual else { return nil }
        var found: [Matcher.Found] = []
        Matcher.walk(expected: expected, actual: actual, exactly: exactly, into: &found)
        if found.isEmpty { return expected }
        switch (expected, actual) {
        case (.object(let want), .object(let have)) where exactly || !want.isEmpty:
            var out = JSONObject()
            for (key, value) in want {
                if let kept = project(value, have[key], exactly: exactly) { out.append(key, kept) }
            }
            if exactly {
                for (key, value) in have where want[key] == nil { out.append(key, value) }
            }
            // `{}` would say "must be empty": a partial object with nothing left is the actual one.
            if out.isEmpty && !have.isEmpty { return actual }
            return .object(out)
        case (.array(let want), .array(let have)) where exactly && want.count == have.count:
            return .array(zip(want, have).map { project($0, $1, exactly: true) ?? $1 })
        default:
            return actual
        }
    }

    /// An `expect` or `expectExactly` object made true of `session`.
    static func expectation(_ expected: JSONObject, session: Session, exactly: Bool) -> JSONValue {
        var out = JSONObject()
        for (key, value) in expected {
            out.append(key, project(value, session.stateValue(key), exactly: exactly) ?? value)
        }
        return .object(out)
    }

    /// An `expectNotice` value made true of `actual` (the notice's JSON, or null).
    static func notice(_ expected: JSONValue, actual: JSONValue) -> JSONValue {
        if expected == .null || actual == .null { return actual }
        return project(expected, actual, exactly: false) ?? actual
    }

    /// An `expectEmitted` list: every notification since the previous check, by name; where the
    /// old list named a payload for a notification of that name (in order), its keys are kept
    /// with the values emitted.
    static func emitted(_ patterns: [EmittedPattern], actual: [SessionNotification]) -> JSONValue {
        var next = 0
        return .array(
            actual.map { notification in
                let name = notification.name
                guard next < patterns.count, patterns[next].name == name else { return .string(name) }
                defer { next += 1 }
                guard let payload = patterns[next].payload else { return .string(name) }
                let kept = project(.object(payload), notification.json[name], exactly: false) ?? .object(payload)
                return [name: kept]
            })
    }

    /// An `expectAnnounced` list: texts alone, or `{"text", "priority"}` objects when the old list
    /// gave a priority anywhere.
    static func announced(_ expected: [(text: String, priority: Announcement.Priority?)], actual: [Announcement]) -> JSONValue {
        let withPriority = expected.contains { $0.priority != nil }
        return .array(actual.map { withPriority ? $0.json : .string($0.text) })
    }

    // MARK: Writing it back

    /// Where a value is in a document, and where its members or elements are.
    struct Span {
        var range: Range<Int>
        var members: [(key: String, span: Span)]? = nil
        var elements: [Span]? = nil
    }

    /// The value of each step (its one member's value) in `source`: nil when the script cannot be
    /// read so (it was read before, so it can).
    static func stepValues(in source: [UInt8]) -> [Span]? {
        source.withUnsafeBufferPointer { buffer -> [Span]? in
            var stream = JSONStream(bytes: buffer)
            do throws(JSONStream.Failure) {
                try stream.beginDocument()
                guard try stream.nextByte() == UInt8(ascii: "{"), try stream.enterObject() else { return nil }
                repeat {
                    guard try stream.key() == "steps" else {
                        try stream.pass()
                        continue
                    }
                    guard try stream.nextByte() == UInt8(ascii: "["), try stream.enterArray() else { return [] }
                    var values: [Span] = []
                    repeat {
                        guard try stream.nextByte() == UInt8(ascii: "{"), try stream.enterObject() else { return nil }
                        _ = try stream.key()
                        values.append(try span(&stream))
                        while try stream.moreMembers() {
                            _ = try stream.key()
                            try stream.pass()
                        }
                    } while try stream.moreElements()
                    return values
                } while try stream.moreMembers()
                return nil
            } catch {
                return nil
            }
        }
    }

    /// The value at the stream's position, with its members' and elements' spans.
    static func span(_ stream: inout JSONStream) throws(JSONStream.Failure) -> Span {
        let start = stream.offset()
        switch try stream.nextByte() {
        case UInt8(ascii: "{"):
            var members: [(key: String, span: Span)] = []
            if try stream.enterObject() {
                repeat {
                    let key = try stream.key()
                    members.append((key, try span(&stream)))
                } while try stream.moreMembers()
            }
            return Span(range: start..<stream.position, members: members)
        case UInt8(ascii: "["):
            var elements: [Span] = []
            if try stream.enterArray() {
                repeat { elements.append(try span(&stream)) } while try stream.moreElements()
            }
            return Span(range: start..<stream.position, elements: elements)
        default:
            try stream.pass()
            return Span(range: start..<stream.position)
        }
    }

    /// The smallest edits that turn `old` (written at `span`) into `new`: an object with the same
    /// keys in the same order, or an array of the same length, is edited member by member; any
    /// other value that differs is written anew.
    static func edits(_ old: JSONValue, at span: Span, to new: JSONValue, into edits: inout [(Range<Int>, String)]) {
        if old == new { return }
        switch (old, new) {
        case (.object(let a), .object(let b)):
            if let members = span.members, a.keys.elementsEqual(b.keys), members.map(\.key).elementsEqual(a.keys) {
                for member in members { Self.edits(a[member.key]!, at: member.span, to: b[member.key]!, into: &edits) }
                return
            }
        case (.array(let a), .array(let b)):
            if let elements = span.elements, a.count == b.count, elements.count == a.count {
                for index in a.indices { Self.edits(a[index], at: elements[index], to: b[index], into: &edits) }
                return
            }
        default:
            break
        }
        edits.append((span.range, line(new)))
    }

    /// A value on one line, as scripts are written: `{"a": 1, "b": [true, null]}`.
    static func line(_ value: JSONValue) -> String {
        switch value {
        case .object(let object):
            if object.isEmpty { return "{}" }
            return "{" + object.map { JSONWriter.string(.string($0.key)) + ": " + line($0.value) }.joined(separator: ", ") + "}"
        case .array(let array):
            return "[" + array.map(line).joined(separator: ", ") + "]"
        default:
            return JSONWriter.string(value)
        }
    }

    /// `source` with `rewrites` made, every other byte as it was; nil when the steps cannot be
    /// found again.
    static func apply(_ rewrites: [Rewrite], to source: [UInt8]) -> [UInt8]? {
        guard let values = stepValues(in: source) else { return nil }
        var all: [(Range<Int>, String)] = []
        for rewrite in rewrites {
            guard rewrite.step < values.count else { return nil }
            let span = values[rewrite.step]
            guard let (old, _) = try? DocumentReader.parse(file: "", bytes: Array(source[span.range])) else { return nil }
            edits(old, at: span, to: rewrite.value, into: &all)
        }
        var out = source
        for (range, text) in all.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            out.replaceSubrange(range, with: Array(text.utf8))
        }
        return out
    }

    /// Writes `bytes` over the file at `path` (through a link, to the file it names): into a new
    /// file beside it, with its permissions, renamed over it, so the script is whole or as it was.
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var status = stat()
        guard stat(target, &status) == 0 else { return "cannot read its permissions: \(String(cString: strerror(errno)))" }
        // Unique per call: two jobs may be handed the same script (named twice on the command line).
        let temporary = target + ".quire-update-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, status.st_mode & 0o7777)
        guard descriptor >= 0 else { return "cannot write beside it: \(String(cString: strerror(errno)))" }
        var written = 0
        var failure: String? = nil
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                written += count
            }
        }
        if failure == nil && fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil && rename(temporary, target) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            return "cannot write it: \(failure)"
        }
        return nil
    }

    /// Runs `script` and rewrites its failing expectations: the script is run again from the
    /// rewritten file, and that run is the result (with `updated` naming the steps rewritten).
    static func run(_ script: SessionScript, path: String, explicit: Bool, flows: FlowCache, options: Runner.Options) -> ScriptResult {
        var collecting = options
        collecting.update = true
        let first = Runner.run(script, options: collecting, flows: flows)
        guard !first.rewrites.isEmpty else { return first }
        guard let updated = apply(first.rewrites, to: script.source) else {
            var result = first
            result.status = .bad([Diagnostic.whole(file: path, message: "--update could not find the steps to rewrite in the file")])
            return result
        }
        if let problem = write(updated, to: path) {
            var result = first
            result.status = .bad([Diagnostic.whole(file: path, message: "--update: \(problem)")])
            return result
        }
        var result: ScriptResult
        switch ScriptLoader.load(path, flows: flows, explicitly: explicit) {
        case .script(let again):
            var plain = options
            plain.update = false
            result = Runner.run(again, options: plain, flows: flows)
        case .bad(let diagnostics):
            result = first
            result.status = .bad(diagnostics)
        case .notAScript:
            result = first
            result.status = .bad([Diagnostic.whole(file: path, message: "--update left a file that is not a script")])
        }
        result.rewrites = first.rewrites
        return result
    }
}
