import QuireCore

/// An `expectEmitted` or `expectEmittedExactly` list, prepared for matching in linear time: its
/// names as codes with their KMP failure function, and its payload patterns deduplicated.
struct EmittedExpectation {
    let patterns: [EmittedPattern]
    let exactly: Bool
    /// The pattern names as codes.
    let codes: [UInt8]
    /// `failure[q]`: the length of the longest proper prefix of `codes[0...q]` that is also its suffix.
    let failure: [Int]
    /// Distinct payload patterns, and for each name code the ones with that name.
    let payloads: [EmittedPattern]
    let payloadsByCode: [UInt8: [Int]]
    /// Per pattern with a payload: its offset in the list and its distinct payload id.
    let payloadOffsets: [(offset: Int, id: Int)]
    /// Per pattern: its distinct payload id, or -1 for a name alone.
    let payloadIDs: [Int]

    init(_ patterns: [EmittedPattern], exactly: Bool) {
        self.patterns = patterns
        self.exactly = exactly
        codes = patterns.map { NotificationCode.of($0.name) }
        var failure = [Int](repeating: 0, count: codes.count)
        var length = 0
        for q in codes.indices.dropFirst() {
            while length > 0 && codes[q] != codes[length] { length = failure[length - 1] }
            if codes[q] == codes[length] { length += 1 }
            failure[q] = length
        }
        self.failure = failure
        var ids: [EmittedPattern: Int] = [:]
        var payloads: [EmittedPattern] = []
        var byCode: [UInt8: [Int]] = [:]
        var offsets: [(offset: Int, id: Int)] = []
        var payloadIDs = [Int](repeating: -1, count: patterns.count)
        for (offset, pattern) in patterns.enumerated() where pattern.payload != nil {
            let id: Int
            if let known = ids[pattern] {
                id = known
            } else {
                id = payloads.count
                ids[pattern] = id
                payloads.append(pattern)
                byCode[codes[offset], default: []].append(id)
            }
            offsets.append((offset, id))
            payloadIDs[offset] = id
        }
        self.payloads = payloads
        payloadsByCode = byCode
        payloadOffsets = offsets
        self.payloadIDs = payloadIDs
    }

    /// Whether the list names payloads (then the window keeps which payload patterns matched,
    /// and a failure lists the notifications with their payloads).
    var detailed: Bool { !payloads.isEmpty }

    /// The list as a failure shows it (a long one shortened).
    func description(_ limits: ScriptLimits) -> String {
        var text = limits.listed(count: patterns.count) { patterns[$0].description }
        if patterns.count > limits.listedNotifications, let colon = text.firstIndex(of: ":") {
            // "N entries: […]" rather than "N notifications: […]".
            text = "\(patterns.count) entries" + text[colon...]
        }
        return text
    }
}

/// The notifications emitted since the previous `expectEmitted`, kept compactly: a name code
/// each, which payload patterns of the coming expectation each matched, and, for a failure
/// message, the first and last few in full (strings cut).
struct NotificationWindow {
    let limits: ScriptLimits
    private(set) var expectation: EmittedExpectation?
    private(set) var codes: [UInt8] = []
    /// `index * payloads.count + id` for each notification that matched distinct payload `id`.
    private var hits = Set<Int>()
    private var head: [JSONValue] = []
    private var tail: [JSONValue] = []
    private var tailStart = 0

    init(limits: ScriptLimits) {
        self.limits = limits
    }

    var count: Int { codes.count }

    /// Starts a window read by `expectation` (the next expectEmitted of the script).
    mutating func reset(for expectation: EmittedExpectation?) {
        self.expectation = expectation
        codes.removeAll(keepingCapacity: codes.count <= 1 << 16)
        hits.removeAll()
        head.removeAll()
        tail.removeAll()
        tailStart = 0
    }

    mutating func append(_ notification: SessionNotification) {
        let index = codes.count
        let code = NotificationCode.of(notification.kind)
        codes.append(code)
        guard let expectation, expectation.detailed else { return }
        for id in expectation.payloadsByCode[code] ?? [] where expectation.payloads[id].matches(notification) {
            hits.insert(index * expectation.payloads.count + id)
        }
        let half = limits.listedNotifications / 2
        if head.count < half {
            head.append(limits.shown(notification.json))
        } else if tail.count < half {
            tail.append(limits.shown(notification.json))
        } else {
            tail[tailStart] = limits.shown(notification.json)
            tailStart = (tailStart + 1) % tail.count
        }
    }

    /// Whether every payload pattern of the expectation matches, with the list placed at `start`.
    private func payloadsMatch(at start: Int, _ expectation: EmittedExpectation) -> Bool {
        expectation.payloadOffsets.allSatisfy { hits.contains((start + $0.offset) * expectation.payloads.count + $0.id) }
    }

    private func matches(_ index: Int, pattern offset: Int, _ expectation: EmittedExpectation) -> Bool {
        guard codes[index] == expectation.codes[offset] else { return false }
        let id = expectation.payloadIDs[offset]
        return id < 0 || hits.contains(index * expectation.payloads.count + id)
    }

    /// Whether the list appears as a contiguous run (KMP over the names, then the payloads at
    /// each place the names match): O(window + list) for names.
    func containsRun(_ expectation: EmittedExpectation) -> Bool {
        let pattern = expectation.codes
        if pattern.isEmpty { return codes.isEmpty }
        guard pattern.count <= codes.count else { return false }
        var matched = 0
        for (index, code) in codes.enumerated() {
            while matched > 0 && pattern[matched] != code { matched = expectation.failure[matched - 1] }
            if pattern[matched] == code { matched += 1 }
            if matched == pattern.count {
                if payloadsMatch(at: index - pattern.count + 1, expectation) { return true }
                matched = expectation.failure[matched - 1]
            }
        }
        return false
    }

    /// The notification at `index`, as a failure lists it.
    func describe(_ index: Int) -> String {
        guard let expectation, expectation.detailed else { return NotificationCode.name(codes[index]) }
        let half = limits.listedNotifications / 2
        if index < head.count { return JSONWriter.string(head[index]) }
        let fromEnd = codes.count - index
        if index >= half, fromEnd <= tail.count {
            return JSONWriter.string(tail[(tailStart + tail.count - fromEnd) % tail.count])
        }
        return NotificationCode.name(codes[index])
    }

    var listed: String { limits.listed(count: codes.count, describe: describe) }

    /// Why the window does not satisfy the expectation it was gathered for, or nil when it does.
    func check() -> String? {
        guard let expectation else { return nil }
        if expectation.exactly { return checkExactly(expectation) }
        guard !containsRun(expectation) else { return nil }
        if expectation.patterns.isEmpty {
            return "expected no notifications since the previous expectEmitted; got \(listed)"
        }
        return
            "expected \(expectation.description(limits)) as a contiguous run among the notifications since the previous expectEmitted; got \(listed)"
    }

    /// Exactly the list, one for one, in order: the first difference is named.
    private func checkExactly(_ expectation: EmittedExpectation) -> String? {
        let wanted = expectation.patterns
        var reason: String? = nil
        for index in 0..<max(wanted.count, codes.count) {
            if index >= codes.count {
                reason = "\(wanted[index].description) (entry \(index + 1)) was not emitted"
            } else if index >= wanted.count {
                reason = "\(describe(index)) (notification \(index + 1)) was not expected"
            } else if !matches(index, pattern: index, expectation) {
                reason = "notification \(index + 1) is \(describe(index)), expected \(wanted[index].description)"
            }
            if reason != nil { break }
        }
        guard let reason else { return nil }
        return "expected exactly \(expectation.description(limits)) since the previous expectEmitted; got \(listed): \(reason)"
    }
}
