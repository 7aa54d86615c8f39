/// Typing's edits of short ASCII texts, done on the two words a small `String` is made of.
///
/// A `String` of at most 15 UTF-8 bytes (on 64-bit platforms) keeps its bytes inline, in its
/// own two words, with no heap buffer: bytes 0–7 in the first word, bytes 8–14 in the second,
/// whose top byte holds the kind (small, ASCII) and the count. Appending one typed character or
/// taking one back through the standard library's public API rebuilds such a string through
/// general code (`String.append`: ~150 instructions; a rebuilt shorter string: ~120), which was
/// most of a keystroke's cost. Here the bytes are shifted into place and the two words written
/// over the old ones: a small string holds no reference, so there is nothing to release or
/// retain.
///
/// **Safety.** That layout is the standard library's, not a public promise on this platform, so
/// nothing here may be used unless `isAvailable`: a probe, run once (`Session` keeps its answer,
/// `smallASCII`), builds every length from 0 to 15 both ways (the standard library's own
/// `String(decoding:)`, and these words written over a small string) and requires the two to be
/// identical bit for bit, and requires that the strings this file must not read as small ASCII
/// (small strings with a non-ASCII byte, a 16-byte and a longer native string) are told apart. A
/// result built here is therefore exactly the string the standard library builds for the same
/// bytes (equal, with the same hash and the same `isASCII`). Where the probe fails (another
/// layout, a 32-bit platform) callers take the public API. `SmallASCIITests` check that the probe
/// passes on the platforms Quire is built for and compare every edit with `String`'s own.
enum SmallASCII {
    /// The top nibble of the second word of a small ASCII string: immortal, ASCII, small.
    static let kindNibble: UInt64 = 0xE
    /// The most UTF-8 bytes a `String` holds without a heap buffer (15 on 64-bit platforms, the
    /// only ones the probe accepts; 10 on 32-bit ones).
    @inline(__always) static var capacity: Int { MemoryLayout<Int>.size == 8 ? 15 : 10 }
    /// The second word's payload bits (bytes 8–14); its top byte is kind and count.
    static let payloadMask: UInt64 = 0x00FF_FFFF_FFFF_FFFF

    /// Whether this platform's `String` keeps small strings as described above (the probe, run
    /// once; a `Session` reads it once, when it is made).
    static let isAvailable: Bool = probe()

    /// A string's two words, as bits (nothing retained; read only).
    @inline(__always) static func words(_ string: String) -> (UInt64, UInt64) {
        unsafeBitCast(string, to: (UInt64, UInt64).self)
    }

    /// A small ASCII string's bytes and count; nil for any other string.
    @inline(__always) static func payload(_ string: String) -> (payload: UInt128, count: Int)? {
        let (low, high) = words(string)
        guard high &>> 60 == kindNibble else { return nil }
        return (UInt128(high & payloadMask) &<< 64 | UInt128(low), Int(truncatingIfNeeded: (high &>> 56) & 0xF))
    }

    /// Makes `string`, which must be a small string (it holds no reference, so nothing is
    /// released), the small ASCII string of `payload`'s low `count` bytes (the rest zero).
    @inline(__always) static func overwrite(_ string: inout String, payload: UInt128, count: Int) {
        let low = UInt64(truncatingIfNeeded: payload)
        let high = UInt64(truncatingIfNeeded: payload &>> 64) | (kindNibble << 60 | UInt64(count) << 56)
        withUnsafeMutableBytes(of: &string) { bytes in
            bytes.storeBytes(of: low, as: UInt64.self)
            bytes.storeBytes(of: high, toByteOffset: 8, as: UInt64.self)
        }
    }

    /// `head.append(tail)`, done as words when both are small ASCII strings and the result is
    /// too (true); otherwise `head` is left alone (false) for the caller to append through
    /// `String`. Only when `isAvailable`.
    @inline(__always) static func append(_ tail: String, to head: inout String) -> Bool {
        guard let (headBytes, headCount) = payload(head), let (tailBytes, tailCount) = payload(tail),
            headCount + tailCount <= capacity
        else { return false }
        overwrite(&head, payload: headBytes | tailBytes &<< (8 * headCount), count: headCount + tailCount)
        return true
    }

    /// `text.removeLast()`, done as words when the text is a small ASCII string with at least one
    /// character (true); otherwise `text` is left alone (false). In ASCII text every character is
    /// one byte but CR LF, one character of two bytes, which goes as one. Only when `isAvailable`.
    @inline(__always) static func removeLastCharacter(_ text: inout String) -> Bool {
        guard let (bytes, count) = payload(text), count > 0 else { return false }
        let lastTwo = count >= 2 ? UInt16(truncatingIfNeeded: bytes &>> (8 * (count - 2))) : 0
        let kept = lastTwo == 0x0A0D ? count - 2 : count - 1  // LF after CR, little-endian
        overwrite(&text, payload: bytes & ((1 &<< (8 * kept)) &- 1), count: kept)
        return true
    }

    /// Builds every small ASCII length both ways and compares the bits; checks that strings this
    /// file must not read as small ASCII are not.
    static func probe() -> Bool {
        guard MemoryLayout<String>.size == 16, MemoryLayout<(UInt64, UInt64)>.size == 16 else { return false }
        let sample: [UInt8] = Array("Quire\r\n~ 0aZ\t\u{7F}!".utf8)
        for count in 0...capacity {
            let expected = String(decoding: sample[..<count], as: UTF8.self)
            var payload: UInt128 = 0
            for (index, byte) in sample[..<count].enumerated() { payload |= UInt128(byte) << (8 * index) }
            var built = "~"
            overwrite(&built, payload: payload, count: count)
            guard words(built) == words(expected), built == expected, built.utf8.count == count,
                let (read, readCount) = Self.payload(expected), read == payload, readCount == count
            else { return false }
        }
        // Not small ASCII: small strings with a non-ASCII byte, the smallest native string, a
        // longer one.
        let others = ["é", "ab\u{301}", String(repeating: "a", count: capacity + 1), String(repeating: "z", count: 40)]
        return others.allSatisfy { payload($0) == nil }
    }
}
