// Fuzz target: a session fed an event sequence read from the bytes, on a fixed flow
// (data/flows/focus-onboarding.json). After every event the invariants of the property tests
// hold: the page index is inside the visible pages, the position is finite (and equal to the
// index when settled), the focus is what the focusChanged notifications said (one first
// responder at most), a completed session ignores everything and stays unchanged, completion
// happens once; every 8 events a snapshot restores an equal session. Built and run by scripts/fuzz.
import QuireCore

#if canImport(Glibc)
    import Glibc
#endif

let root = Environment.get("QUIRE_FUZZ_ROOT") ?? String(#filePath.dropLast("/Fuzz/Targets/session.swift".count))
let flow: Flow = {
    do {
        return try Flow.load(contentsOf: root + "/data/flows/focus-onboarding.json")
    } catch {
        fatalError("the session target's flow does not load: \(error)")
    }
}()

enum Environment {
    static func get(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}

/// Reads events from bytes: one byte picks the kind, the next ones its argument.
struct EventReader {
    var bytes: [UInt8]
    var offset = 0
    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }
    mutating func signed() -> Double { Double(Int8(bitPattern: byte() ?? 0)) }

    mutating func next() -> Event? {
        guard let kind = byte() else { return nil }
        switch kind % 20 {
        case 0, 1: return .tap(.field(flow.fields[Int(byte() ?? 0) % flow.fields.count].id))
        case 2: return .tap(.background)
        case 3: return .tap([.indicatorLeft, .indicatorRight, .indicatorPage(Int(byte() ?? 0) % 8)][Int(kind / 20) % 3])
        case 4: return .tap(.button(TapTarget.Button.allCases[Int(byte() ?? 0) % TapTarget.Button.allCases.count]))
        case 5: return .tap(.accessory(AccessoryItem.allCases[Int(byte() ?? 0) % AccessoryItem.allCases.count]))
        case 6, 7: return .key(Key.allCases[Int(byte() ?? 0) % Key.allCases.count])
        case 8:
            let count = Int(byte() ?? 0) % 12
            var text = ""
            for _ in 0..<count {
                let b = byte() ?? 65
                if b < 0xC0 {
                    text.unicodeScalars.append(Unicode.Scalar(b % 95 + 32))
                } else {
                    text.unicodeScalars.append(
                        ["\u{301}", "\u{1F44D}", "\n", "\u{E9}", "\u{200D}", "\u{0}", "\u{FE0F}", "\u{1F3FD}"][Int(b) % 8])
                }
            }
            return .type(text)
        case 9: return .spin(component: DurationComponent.allCases[Int(byte() ?? 0) % DurationComponent.allCases.count], by: Int(signed()))
        case 10: return .select(["red", "blue", "ja", "en", "x"][Int(byte() ?? 0) % 5])
        case 11: return .dragBegin
        case 12: return .dragUpdate(dx: signed() * 9)
        case 13: return .dragEnd(vx: signed() * 20)
        case 14: return .swipe(dx: signed() * 8, vx: signed() * 20)
        case 15: return .swipePage(forward: (byte() ?? 0) & 1 == 0)
        case 16, 17: return .tick(Double(byte() ?? 0) * 4)
        case 18: return .settle
        default: return .type(["a", "Zz\n", "é👍", "\u{301}"][Int(byte() ?? 0) % 4])
        }
    }
}

func number(_ value: JSONValue?, _ key: String) -> Double {
    guard case .object(let object)? = value, case .number(let number)? = object[key] else { fatalError("state has no \(key)") }
    return number
}

func roundTrip(_ session: Session, includingFlow: Bool) {
    let snapshot = JSONWriter.data(session.snapshot(includingFlow: includingFlow))
    let restored = try? Session(restoring: snapshot, flow: includingFlow ? nil : flow)
    if restored != session { fatalError("a snapshot did not restore an equal session\n\(String(decoding: snapshot, as: UTF8.self))") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSession(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var reader = EventReader(bytes: data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    var session = Session(flow: flow)
    var focus: String? = nil
    var step = 0
    while let event = reader.next() {
        let before = session
        let notes = session.send(event)
        step += 1
        let page = session.stateValue("page")
        let index = number(page, "index")
        let count = number(page, "count")
        if !(index >= 0 && index < count) { fatalError("step \(step) \(event): page index \(index) outside 0..<\(count)") }
        guard case .number(let position)? = session.stateValue("position"), position.isFinite else {
            fatalError("step \(step) \(event): the position is not a finite number")
        }
        if session.transition == nil && position != index { fatalError("step \(step) \(event): settled at \(position), page \(index)") }
        for note in notes {
            if case .focusChanged(let from, let to) = note {
                if from != focus {
                    fatalError("step \(step) \(event): focus moved from \(from ?? "nothing"), but \(focus ?? "nothing") had it")
                }
                focus = to
            }
        }
        if focus != session.focusedField {
            fatalError("step \(step) \(event): focus is \(session.focusedField ?? "nothing"), notified \(focus ?? "nothing")")
        }
        if before.completed != nil {
            if session != before { fatalError("step \(step) \(event): the session changed after completion") }
            if notes.count != 1 { fatalError("step \(step) \(event): \(notes.count) notifications after completion") }
            guard case .ignored(_, _, let reason) = notes[0], reason == .completed else {
                fatalError("step \(step) \(event): an event after completion was not ignored")
            }
        }
        let completions = notes.filter { if case .completed = $0 { true } else { false } }.count
        if completions > (before.completed == nil ? 1 : 0) { fatalError("step \(step) \(event): completed \(completions) times") }
        if step % 8 == 0 { roundTrip(session, includingFlow: step % 16 == 0) }
    }
    roundTrip(session, includingFlow: false)
    return 0
}
