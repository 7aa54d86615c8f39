import Foundation
import QuireCore
import Testing

@testable import QuireHarness

/// Scripts are read in one pass (`ScriptLoader.read`); one with a problem is read again as a tree
/// (`loadTree`), which names it. The one-pass reader must give the tree's script for every good
/// script and give up on every bad one.
@Suite struct OnePassReadTests {
    static let sessions = testsFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "data/sessions"
    ).path

    @Test func everyScriptOfDataSessionsReadsAsTheTreeReadsIt() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.sessions).filter { $0.hasSuffix(".json") }
        #expect(files.count > 200)
        let flows = FlowCache()
        for name in files {
            let file = Self.sessions + "/" + name
            let bytes = try Flow.readDocument(file)
            let read = try #require(ScriptLoader.read(bytes: bytes, file: file, flows: flows, limits: .default), "\(name)")
            guard case .script(let tree) = ScriptLoader.loadTree(bytes: bytes, file: file, flows: flows, limits: .default) else {
                Issue.record("\(name) does not load as a tree")
                continue
            }
            #expect(read.name == tree.name && read.locale == tree.locale && read.viewportWidth == tree.viewportWidth)
            #expect(read.description == tree.description && read.reducedMotion == tree.reducedMotion)
            #expect(read.startingValues == tree.startingValues && read.flowFile == tree.flowFile)
            #expect(read.steps.count == tree.steps.count)
            for index in read.steps.indices {
                #expect("\(read.steps[index])" == "\(tree.steps[index])", "\(name) step \(index)")
                #expect(read.rawStep(index) == tree.rawStep(index), "\(name) step \(index)")
            }
        }
    }

    /// Keys repeated in other spellings are repeated for `JSONParser` (it compares strings:
    /// canonical equivalence), so `JSONStream` gives up on them too; the same objects without
    /// the repeat read as `JSONParser` reads them.
    @Test(arguments: [
        (#"{"K": 1, "\#u{212A}": 2}"#, #"{"K": 1, "L": 2}"#),
        (#"{"\#u{212A}": 1, "K": 2}"#, #"{"\#u{212A}": 1, "L": 2}"#),
        (#"{"\u212A": 1, "K": 2}"#, #"{"\u212A": 1, "k": 2}"#),
        (#"{"é": 1, "e\#u{301}": 2}"#, #"{"é": 1, "e": 2}"#),
        (#"{"id": 1, "i\u0064": 2}"#, #"{"id": 1, "i\u0065": 2}"#),
        (#"{"i\u0064": 1, "id": 2}"#, #"{"i\u0064": 1, "ie": 2}"#),
        (
            #"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"a":14}"#,
            #"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14}"#
        ),
        (
            #"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"m":14}"#,
            #"{"a":{"a":{}},"b":[{"b":1,"c":2}]}"#
        ),
    ])
    func aKeyRepeatedInAnotherSpellingIsRepeated(_ repeated: String, _ distinct: String) throws {
        func stream(_ text: String) -> JSONValue? {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { buffer in
                var stream = JSONStream(bytes: buffer)
                do {
                    try stream.beginDocument()
                    let value = try stream.read()
                    try stream.endDocument()
                    return value
                } catch {
                    return nil
                }
            }
        }
        let parsed = try JSONParser.parse(Array(repeated.utf8), limits: .default)
        #expect(parsed.duplicateKeys.count == 1)
        #expect(stream(repeated) == nil)
        let plain = try JSONParser.parse(Array(distinct.utf8), limits: .default)
        #expect(plain.duplicateKeys.isEmpty)
        #expect(stream(distinct) == plain.value)
    }
}
