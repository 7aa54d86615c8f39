import Testing

@testable import QuireCore

/// `NameTable`, which the script reader and `expect` look names up through, against
/// `init(rawValue:)` and the `switch` it replaces: every name, and near misses of each.
@Suite struct NameTableTests {
    /// Each name, and names one edit away or differently spelled (case, a NUL, a combining
    /// mark, a longer and a shorter one, non-ASCII of the same length in bytes).
    static func probes(_ names: [String]) -> [String] {
        var probes = ["", " ", ":", "\u{0}", String(repeating: "x", count: 200)]
        for name in names {
            probes.append(name)
            probes.append(name.uppercased())
            probes.append(name.lowercased())
            probes.append(String(name.dropLast()))
            probes.append(String(name.dropFirst()))
            probes.append(name + "s")
            probes.append(name + "\u{0}")
            probes.append("\u{301}" + name)
            probes.append(name + "\u{301}")
            probes.append(String(name.reversed()))
            probes.append("é" + String(name.dropFirst(2)))
            // Canonically equal to the name, in other bytes: KELVIN SIGN is K, GREEK QUESTION
            // MARK is ';'.
            probes.append(String(name.map(twin)))
        }
        return probes
    }

    /// A character canonically equal to `c` in other bytes, where there is one that matters.
    static func twin(_ c: Character) -> Character {
        switch c {
        case "K": "\u{212A}"
        case ";": "\u{37E}"
        default: c
        }
    }

    static func check<T: CaseIterable & RawRepresentable & Equatable>(
        _ type: T.Type, _ lookup: (String) -> T?
    ) where T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        for probe in probes(names) {
            #expect(lookup(probe) == T(rawValue: probe), "\(T.self) '\(probe)'")
        }
    }

    @Test func eachTableFindsWhatInitRawValueFinds() {
        Self.check(Event.Kind.self) { Event.Kind(name: $0) }
        Self.check(TapTarget.Button.self) { TapTarget.Button.table.index(of: $0).map { TapTarget.Button.cases[$0] } }
        Self.check(AccessoryItem.self) { AccessoryItem.table.index(of: $0).map { AccessoryItem.cases[$0] } }
        Self.check(Session.StateKey.self) { Session.stateKeyTable.index(of: $0).map { Session.stateKeyCases[$0] } }
        Self.check(Key.self) { Key.table.index(of: $0).map { Key.cases[$0] } }
    }

    @Test func aKeyNameOrAliasIsTheKeyItWasBefore() {
        for probe in Self.probes(Key.allCases.map(\.rawValue) + Key.aliases.keys.sorted()) {
            #expect(Key(gdkName: probe) == (Key(rawValue: probe) ?? Key.aliases[probe]), "'\(probe)'")
        }
    }

    @Test func aListedTwiceNameIsFoundAtItsFirstPlace() {
        #expect(NameTable(["Key"]).index(of: "\u{212A}ey") == 0)
        #expect(NameTable(["\u{212A}ey"]).index(of: "Key") == 0)
        #expect(NameTable(["é"]).index(of: "e\u{301}") == 0)
        let table = NameTable(["a", "bb", "a", "cc", ""])
        #expect(table.index(of: "a") == 0)
        #expect(table.index(of: "bb") == 1)
        #expect(table.index(of: "cc") == 3)
        #expect(table.index(of: "") == 4)
        #expect(table.index(of: "ccc") == nil)
        #expect(NameTable([]).index(of: "") == nil)
    }

    /// `TapTarget(_:)` read over the name's bytes gives what reading the name as a `String` gave:
    /// the same target for every name of the grammar, nil for near misses.
    @Test func aTapTargetIsReadAsItsNameSays() {
        var good: [(String, TapTarget)] = [
            ("background", .background), ("indicator:left", .indicatorLeft), ("indicator:right", .indicatorRight),
            ("indicator:0", .indicatorPage(0)), ("indicator:123456789", .indicatorPage(123_456_789)),
            ("userName", .field("userName")), ("naïve", .field("naïve")),
        ]
        for button in TapTarget.Button.allCases { good.append(("button:" + button.rawValue, .button(button))) }
        for item in AccessoryItem.allCases { good.append(("accessory:" + item.rawValue, .accessory(item))) }
        for (name, target) in good {
            #expect(TapTarget(name) == target, "'\(name)'")
            #expect(TapTarget(target.name) == target, "'\(target.name)'")
        }
        let bad = [
            "", "indicator:", "indicator:1234567890", "indicator:-1", "indicator:1a", "indicator:Left", "button:", "button:Next",
            "button:nxt", "accessory:", "accessory:dne", "accesory:done", ":", "x:y", "button:next:", "indicator:left ",
            "button:next\u{0}", "accessory:done\u{301}",
        ]
        for name in bad { #expect(TapTarget(name) == nil, "'\(name)'") }
    }
}
