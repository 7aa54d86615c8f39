import CQuire
import Foundation
import QuireCore

@testable import QuireEmbed

/// Runs the `--- calls` block of a `run: capi` case against the C API's exported functions and
/// writes a transcript: each call with what it returned, the error it set (code and message), the
/// notifications its observer saw and when the destroy notifier ran. Corpus/README.md lists the
/// calls.
enum CAPIScript {
    /// Collects what an observer sees and counts destroy notifications.
    final class Recorder {
        var notifications: [String] = []
        var destroyed = 0
    }

    static let observer: QuireEngineObserver = { _, text, userData in
        let recorder = Unmanaged<Recorder>.fromOpaque(userData!).takeUnretainedValue()
        let json = text.flatMap { try? JSONParser.parse(String(cString: $0)).value }
        recorder.notifications.append(json?.objectValue?.keys.first ?? "?")
    }

    static let destroy: QuireDestroyNotify = { userData in
        Unmanaged<Recorder>.fromOpaque(userData!).takeUnretainedValue().destroyed += 1
    }

    static let codeNames: [UInt32: String] = [
        QUIRE_ENGINE_ERROR_INVALID_ARGUMENT.rawValue: "QUIRE_ENGINE_ERROR_INVALID_ARGUMENT",
        QUIRE_ENGINE_ERROR_FILE.rawValue: "QUIRE_ENGINE_ERROR_FILE",
        QUIRE_ENGINE_ERROR_INVALID_JSON.rawValue: "QUIRE_ENGINE_ERROR_INVALID_JSON",
        QUIRE_ENGINE_ERROR_INVALID_FLOW.rawValue: "QUIRE_ENGINE_ERROR_INVALID_FLOW",
        QUIRE_ENGINE_ERROR_INVALID_EVENT.rawValue: "QUIRE_ENGINE_ERROR_INVALID_EVENT",
        QUIRE_ENGINE_ERROR_INVALID_SNAPSHOT.rawValue: "QUIRE_ENGINE_ERROR_INVALID_SNAPSHOT",
    ]

    /// An argument: NULL, the bytes of a file (`<FILE`), or the text as written.
    enum Argument {
        case null
        case bytes([UInt8], shown: String)

        init(_ text: String, in folder: URL) throws {
            if text == "NULL" {
                self = .null
            } else if text.hasPrefix("<") {
                // (The core's reader, not Data(contentsOf:), which leaks 4 KiB reading an empty file.)
                let bytes = try Flow.readDocument(
                    folder.appendingPathComponent(String(text.dropFirst())).path, limits: JSONLimits(documentBytes: 64 << 20))
                self = .bytes(bytes, shown: "\(text) (\(bytes.count) bytes)")
            } else {
                self = .bytes(Array(text.utf8), shown: JSONWriter.string(.string(text)))
            }
        }

        var shown: String {
            switch self {
            case .null: "NULL"
            case .bytes(_, let shown): shown
            }
        }

        /// Calls `body` with a NUL-terminated copy (or NULL).
        func with<R>(_ body: (UnsafePointer<CChar>?) -> R) -> R {
            switch self {
            case .null: return body(nil)
            case .bytes(let bytes, _):
                return (bytes + [0]).withUnsafeBufferPointer { raw in raw.withMemoryRebound(to: CChar.self) { body($0.baseAddress) } }
            }
        }
    }

    static func run(_ calls: [String], in folder: URL) throws -> [String] {
        var out: [String] = []
        var engine: EngineHandle? = nil
        let recorder = Recorder()
        let recorderPointer = Unmanaged.passRetained(recorder).toOpaque()
        defer {
            quireEngineFree(engine)
            Unmanaged<Recorder>.fromOpaque(recorderPointer).release()
        }

        /// Calls `body` with a fresh error out-pointer; the error's lines, freed.
        func withError<R>(_ body: (ErrorOut) -> R) -> (R, [String]) {
            var error: UnsafeMutablePointer<QuireEngineError>? = nil
            let result = body(&error)
            defer { quireEngineErrorFree(error) }
            guard let error else { return (result, []) }
            let code = codeNames[UInt32(bitPattern: error.pointee.code)] ?? "error \(error.pointee.code)"
            let message = error.pointee.message.map { String(cString: $0) } ?? "(no message)"
            // Paths are shown relative to the case's folder.
            let lines = message.replacingOccurrences(of: folder.path + "/", with: "").components(separatedBy: "\n")
            return (result, ["  \(code): \(lines[0])"] + lines.dropFirst().map { "  | \($0)" })
        }
        func take(_ text: UnsafeMutablePointer<CChar>?) -> String {
            guard let text else { return "NULL" }
            defer { quireFree(text) }
            return String(cString: text)
        }
        func engineResult(_ made: EngineHandle?) -> String {
            guard let made else { return "NULL" }
            quireEngineFree(engine)
            engine = made
            return "an engine"
        }

        for line in calls where !line.isEmpty && !line.hasPrefix("#") {
            let parts = line.split(separator: " ", maxSplits: 1)
            let call = String(parts[0])
            let text = parts.count > 1 ? String(parts[1]) : ""
            let notifiedBefore = recorder.notifications.count
            let destroyedBefore = recorder.destroyed
            var lines: [String]
            switch call {
            case "new_from_file", "new_from_json", "restore":
                // A relative path is the case folder's (the process's folder is not).
                var argument = try Argument(text, in: folder)
                if call == "new_from_file", case .bytes(let bytes, let shown) = argument, bytes.first != UInt8(ascii: "/") {
                    argument = .bytes(Array((folder.path + "/").utf8) + bytes, shown: shown)
                }
                let (made, error) = withError { error in
                    argument.with { pointer in
                        switch call {
                        case "new_from_file": quireEngineNewFromFile(pointer, error)
                        case "new_from_json": quireEngineNewFromJSON(pointer, error)
                        default: quireEngineRestore(pointer, error)
                        }
                    }
                }
                lines = ["quire_engine_\(call)(\(argument.shown)) → \(engineResult(made))"] + error
            case "send", "send_to_null":
                let argument = try Argument(text, in: folder)
                let target = call == "send" ? engine : nil
                let (sent, error) = withError { error in argument.with { quireEngineSend(target, $0, error) } }
                lines = ["quire_engine_send(\(target == nil ? "NULL" : "engine"), \(argument.shown)) → \(sent)"] + error
            case "observe", "observe_null_engine":
                let target = call == "observe" ? engine : nil
                let set = quireEngineSetObserver(target, observer, recorderPointer, destroy)
                lines = ["quire_engine_set_observer(\(target == nil ? "NULL" : "engine"), observer, data, destroy) → \(set)"]
            case "unobserve":
                lines = [
                    "quire_engine_set_observer(engine, NULL, data, destroy) → \(quireEngineSetObserver(engine, nil, recorderPointer, destroy))"
                ]
            case "free":
                quireEngineFree(engine)
                engine = nil
                lines = ["quire_engine_free(engine)"]
            case "free_null":
                quireEngineFree(nil)
                quireEngineErrorFree(nil)
                quireFree(nil)
                lines = ["quire_engine_free(NULL), quire_engine_error_free(NULL), quire_free(NULL): nothing happens"]
            case "set_locale", "set_locale_null_engine":
                let argument = try Argument(text, in: folder)
                let target = call == "set_locale" ? engine : nil
                let (set, error) = withError { error in argument.with { quireEngineSetLocale(target, $0, error) } }
                lines = ["quire_engine_set_locale(\(target == nil ? "NULL" : "engine"), \(argument.shown)) → \(set)"] + error
            case "set_viewport_width":
                let width = Double(text) ?? .nan
                let (set, error) = withError { quireEngineSetViewportWidth(engine, width, $0) }
                lines = ["quire_engine_set_viewport_width(engine, \(text)) → \(set)"] + error
            case "page_presentation":
                let index = Int32(text) ?? 0
                let page = take(quireEngineGetPagePresentation(engine, index))
                lines = ["quire_engine_get_page_presentation(engine, \(index)) → \(page == "NULL" ? "NULL" : "a page")"]
            case "state":
                // One key of the state, as JSON.
                let state = try JSONParser.parse(take(quireEngineGetState(engine))).value
                lines = ["state \(text): \(state[text].map { JSONWriter.string($0) } ?? "(none)")"]
            case "snapshot_restore":
                let snapshot = take(quireEngineSnapshot(engine))
                let before = take(quireEngineGetState(engine))
                let (made, error) = withError { error in snapshot.withCString { quireEngineRestore($0, error) } }
                let result = engineResult(made)
                let same = made != nil && take(quireEngineGetState(engine)) == before
                lines = ["quire_engine_restore(quire_engine_snapshot(engine)) → \(result)\(same ? ", the same state" : "")"] + error
            case "getters_null":
                lines = [
                    "get_state \(take(quireEngineGetState(nil))), get_presentation \(take(quireEngineGetPresentation(nil))), "
                        + "get_page_presentation \(take(quireEngineGetPagePresentation(nil, 0))), snapshot \(take(quireEngineSnapshot(nil))), "
                        + "get_page_id \(take(quireEngineGetPageID(nil))), get_focus \(take(quireEngineGetFocus(nil))), "
                        + "get_outcome \(take(quireEngineGetOutcome(nil))), get_result \(take(quireEngineGetResult(nil))), "
                        + "get_locale \(take(quireEngineGetLocale(nil)))",
                    "get_page_index \(quireEngineGetPageIndex(nil)), get_page_count \(quireEngineGetPageCount(nil)), "
                        + "is_completed \(quireEngineIsCompleted(nil)), get_viewport_width \(quireEngineGetViewportWidth(nil))",
                ]
            default:
                throw CaseError("unknown call '\(call)'")
            }
            let notified = Array(recorder.notifications[notifiedBefore...])
            if !notified.isEmpty {
                let shown = notified.count <= 8 ? notified : notified.prefix(6) + ["… \(notified.count - 8) more …"] + notified.suffix(2)
                lines.append("  notified \(notified.count): \(shown.joined(separator: ", "))")
            }
            if recorder.destroyed > destroyedBefore {
                lines.append(
                    "  destroy notifier ran \(recorder.destroyed - destroyedBefore == 1 ? "once" : "\(recorder.destroyed - destroyedBefore) times")"
                )
            }
            out += lines
        }
        return out
    }
}
