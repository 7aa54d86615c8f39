import QuireCore

/// `expectAccessible`: an expected accessibility tree against the one a front exposes (the
/// core's, `Session.accessibleTree`, in `quire test`; the window's, read over AT-SPI, in `quire
/// run --replay`). Exact: the same elements in the same order, each with the same role, name,
/// value, states and described-by text.
public enum AccessibleCheck {
    /// Nothing when `actual` is `expected`; else the failure's lines: each element that differs
    /// (expected and actual), then the whole actual tree, as a script would write it.
    public static func differences(expected: [AccessibleElement], actual: [AccessibleElement], what: String = "accessible tree")
        -> [String]
    {
        guard expected != actual else { return [] }
        var lines = ["\(what): expected \(count(expected)), got \(count(actual))"]
        for index in 0..<max(expected.count, actual.count) {
            let want = index < expected.count ? expected[index] : nil
            let had = index < actual.count ? actual[index] : nil
            guard want != had else { continue }
            lines.append("  element \(index + 1): expected \(want?.line ?? "nothing"), got \(had?.line ?? "nothing")")
        }
        lines.append("  the \(what) (JSON), as expectAccessible would say it:")
        lines += actual.map { "    " + JSONWriter.string($0.json) }
        return lines
    }

    static func count(_ tree: [AccessibleElement]) -> String { tree.count == 1 ? "1 element" : "\(tree.count) elements" }
}
