/// A fixed list of names, looked up by a name's UTF-8 length and then compared whole with the
/// few names of that length. `init(rawValue:)` of a `String` enum and a `switch` over string
/// literals compare the name with every case in turn; a script's reader and `expect` look up
/// thousands of keys, step names and targets this way.
///
/// `String` equality is canonical equivalence, under which strings of different lengths can be
/// equal (`"\u{212A}"`, KELVIN SIGN, is `"K"`). Two ASCII strings are equal only when their bytes
/// are, so a name that is not found by length is compared with every name, as before, unless it
/// and every listed name are ASCII.
package struct NameTable: Sendable {
    /// `byLength[n]`: the names of `n` UTF-8 bytes, with their place in the list.
    private let byLength: [[(name: String, index: Int)]]
    private let names: [String]
    private let allASCII: Bool

    package init(_ names: [String]) {
        var byLength = [[(name: String, index: Int)]](repeating: [], count: (names.map(\.utf8.count).max() ?? 0) + 1)
        for (index, name) in names.enumerated() where !byLength[name.utf8.count].contains(where: { $0.name == name }) {
            byLength[name.utf8.count].append((name, index))
        }
        self.byLength = byLength
        self.names = names
        allASCII = names.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
    }

    /// The place of `name` in the list (its first place, when it is listed twice), or nil.
    package func index(of name: String) -> Int? {
        let count = name.utf8.count
        if count < byLength.count {
            for entry in byLength[count] where entry.name == name { return entry.index }
        }
        if allASCII && Self.isASCII(name) { return nil }
        return names.firstIndex(of: name)
    }

    private static func isASCII(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } }
    }
}
