/// Break opportunities for long unbroken runs (docs/gtk-shell.md, "Window sizes"). Pango wraps a
/// run with no break opportunity — a 2,000-character word, a long URL — in time that grows with
/// the square of its length (one label of 2,000 characters took 2–4 s to show, 16,000 took 30 s);
/// with a zero-width space (U+200B) every `chunk` characters of such a run it is linear. Runs of
/// at most `longest` characters, and every text with whitespace often enough, are left as they are.
public enum LineBreaks {
    public static let longest = 48
    public static let chunk = 24

    /// The text with U+200B inserted every `chunk` characters of each run longer than `longest`
    /// characters without whitespace; nil when no run is that long (the text is shown as is).
    public static func breakable(_ text: String) -> String? {
        // Characters are never more than UTF-8 bytes: short texts are decided without counting.
        guard text.utf8.count > longest else { return nil }
        var run = 0
        var needed = false
        for character in text {
            if character.isWhitespace {
                run = 0
            } else {
                run += 1
                if run > longest { needed = true; break }
            }
        }
        guard needed else { return nil }
        var out = ""
        out.reserveCapacity(text.utf8.count + text.utf8.count / chunk * 3)
        var pending: [Character] = []
        func flush() {
            for (index, character) in pending.enumerated() {
                if pending.count > longest && index > 0 && index % chunk == 0 { out.append("\u{200B}") }
                out.append(character)
            }
            pending.removeAll(keepingCapacity: true)
        }
        for character in text {
            if character.isWhitespace {
                flush()
                out.append(character)
            } else {
                pending.append(character)
            }
        }
        flush()
        return out
    }
}
