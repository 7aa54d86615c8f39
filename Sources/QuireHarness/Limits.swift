import QuireCore

/// What one script may cost, so that no script, however long, takes a run down. A script over a
/// limit is bad input (reported at the step that went over, exit status 2); the other scripts
/// still run. No sane script comes near these: docs/session-scripts.md, "Limits", lists them.
public struct ScriptLimits: Sendable, Hashable {
    /// Steps in one script (checked when the script is read).
    public var steps = 100_000
    /// Notifications the events of one script may emit, in all.
    public var notifications = 10_000_000
    /// Notifications kept for the next `expectEmitted` (those emitted since the previous one).
    /// Only a name is kept per notification, plus which payload patterns it matched when the
    /// next `expectEmitted` asks about payloads; nothing is kept when no `expectEmitted` follows.
    public var window = 1_000_000
    /// A trace records at most this many notifications in all, and this many per step; the rest
    /// are counted ("… and N more").
    public var traceNotifications = 100_000
    public var traceNotificationsPerStep = 100
    /// A trace records at most this many state changes in all; the rest are counted.
    public var traceChanges = 100_000
    /// Strings in traces and in the notifications a failure lists are cut to this many
    /// characters, with the number of bytes left out.
    public var shownCharacters = 200
    /// A failure lists at most this many notifications: the first half and the last half.
    public var listedNotifications = 100

    public init() {}

    public static let `default` = ScriptLimits()

    /// `value` with every string longer than `shownCharacters` cut, saying how much was left out.
    func shown(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text) where text.utf8.count > shownCharacters:
            let kept = text.prefix(shownCharacters)
            guard kept.endIndex != text.endIndex else { return value }
            return .string(String(kept) + "…(\(text.utf8.count - kept.utf8.count) more bytes)")
        case .object(let object):
            var out = JSONObject()
            for (key, member) in object { out.append(key, shown(member)) }
            return .object(out)
        case .array(let array):
            return .array(array.map(shown))
        default:
            return value
        }
    }

    /// A list of descriptions, at most `listedNotifications` of them: the first half, a count of
    /// those left out, the last half.
    func listed(count: Int, describe: (Int) -> String) -> String {
        guard count > 0 else { return "nothing" }
        if count <= listedNotifications { return "[" + (0..<count).map(describe).joined(separator: ", ") + "]" }
        let half = listedNotifications / 2
        let head = (0..<half).map(describe)
        let tail = ((count - half)..<count).map(describe)
        return "\(count) notifications: [" + head.joined(separator: ", ") + ", … \(count - 2 * half) more …, "
            + tail.joined(separator: ", ") + "]"
    }
}

/// A notification name as one byte (its index in `SessionNotification.names`), so a window of a
/// million notifications costs a megabyte and holds no payload.
enum NotificationCode {
    /// The names, looked up by length and then compared (no hashing).
    static let table = NameTable(SessionNotification.names)
    /// For a name that is not a notification's (never emitted, never matched).
    static let unknown = UInt8.max

    static func of(_ name: String) -> UInt8 { table.index(of: name).map { UInt8(truncatingIfNeeded: $0) } ?? unknown }

    /// The code of a kind (its place in `Kind.allCases`, the order of `SessionNotification.names`)
    /// without hashing its name.
    static func of(_ kind: SessionNotification.Kind) -> UInt8 {
        UInt8(truncatingIfNeeded: kinds.firstIndex(of: kind) ?? Int(unknown))
    }

    /// `allCases` builds a new array each time it is read.
    static let kinds = SessionNotification.Kind.allCases

    /// `Kind(rawValue:)` through `table` rather than a comparison with each name.
    static func kind(named name: String) -> SessionNotification.Kind? { table.index(of: name).map { kinds[$0] } }

    static func name(_ code: UInt8) -> String {
        Int(code) < SessionNotification.names.count ? SessionNotification.names[Int(code)] : "?"
    }
}
