import Foundation
import Testing

@testable import QuireCore

/// Documents made to hurt: the messages say what happened, and the cost stays linear.
@Suite struct HostileDocumentTests {
    func syntaxError(_ bytes: [UInt8]) -> String? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return "\(SourcePosition(offset: error.offset, in: bytes)): \(error.path): \(error.message)"
        }
    }

    func utf16(_ text: String, bigEndian: Bool, mark: Bool) -> [UInt8] {
        var bytes: [UInt8] = mark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            let pair = [UInt8(unit >> 8), UInt8(unit & 0xFF)]
            bytes += bigEndian ? pair : pair.reversed()
        }
        return bytes
    }

    // MARK: Encodings

    @Test func aUTF16FileSaysItIsUTF16() {
        let flow = #"{"format": "quire.flow/1"}"#
        #expect(
            syntaxError(utf16(flow, bigEndian: false, mark: true))
                == "1:1: $: the file is UTF-16 (little-endian, with a byte order mark); Quire reads UTF-8 only (save it as UTF-8)")
        #expect(
            syntaxError(utf16(flow, bigEndian: true, mark: true))
                == "1:1: $: the file is UTF-16 (big-endian, with a byte order mark); Quire reads UTF-8 only (save it as UTF-8)")
        #expect(
            syntaxError(utf16(flow, bigEndian: false, mark: false))
                == "1:1: $: the file is UTF-16 (little-endian); Quire reads UTF-8 only (save it as UTF-8)")
        #expect(
            syntaxError(utf16(" " + flow, bigEndian: true, mark: false))
                == "1:1: $: the file is UTF-16 (big-endian); Quire reads UTF-8 only (save it as UTF-8)")
        #expect(
            syntaxError([0xFF, 0xFE, 0, 0, 0x7B, 0, 0, 0])
                == "1:1: $: the file is UTF-32 (little-endian, with a byte order mark); Quire reads UTF-8 only (save it as UTF-8)")
        #expect(
            syntaxError([0, 0, 0, 0x7B, 0, 0, 0, 0x7D])
                == "1:1: $: the file is UTF-32 (big-endian); Quire reads UTF-8 only (save it as UTF-8)")
        // UTF-8, with or without its byte order mark, is read as before.
        #expect(syntaxError(Array(flow.utf8)) == nil)
        #expect(syntaxError([0xEF, 0xBB, 0xBF] + Array(flow.utf8)) == nil)
        #expect(syntaxError(Array("1".utf8)) == nil)
    }

    @Test func aUTF16FlowFileIsRejectedWithThatMessage() throws {
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("flow.json")
        try Data(utf16(#"{"format": "quire.flow/1", "id": "x", "pages": [{"id": "p"}]}"#, bigEndian: false, mark: true)).write(to: file)
        #expect(
            loadProblems(file.path) == [
                "\(file.path):1:1: $: the file is UTF-16 (little-endian, with a byte order mark); Quire reads UTF-8 only (save it as UTF-8)"
            ])
    }

    // MARK: Numbers

    @Test func anIntegerBeyondTwoToTheFiftyThirdIsTooLargeNotRounded() throws {
        let message = { (text: String) in
            "1:7: $.a: the integer \(text) is too large: integers are exact only up to 2^53 (9007199254740992) and this one would be rounded"
        }
        #expect(syntaxError(Array(#"{"a": 9007199254740993}"#.utf8)) == message("9007199254740993"))
        #expect(syntaxError(Array(#"{"a": -9007199254740993}"#.utf8)) == message("-9007199254740993"))
        #expect(syntaxError(Array(#"{"a": 12345678901234567890}"#.utf8)) == message("12345678901234567890"))
        #expect(syntaxError(Array(#"{"a": 9999999999999999}"#.utf8)) == message("9999999999999999"))
        // 2^53 itself is exact; so is everything below it, and numbers written with a fraction or
        // an exponent are read as the floating-point numbers they are.
        #expect(try JSONParser.parse(#"{"a": 9007199254740992}"#).value == ["a": 9_007_199_254_740_992])
        #expect(try JSONParser.parse(#"{"a": -9007199254740992}"#).value == ["a": -9_007_199_254_740_992])
        #expect(try JSONParser.parse(#"{"a": 1000000000000000}"#).value == ["a": 1_000_000_000_000_000])
        #expect(try JSONParser.parse(#"{"a": 1e20}"#).value == ["a": 1e20])
        #expect(try JSONParser.parse(#"{"a": 9007199254740993.0}"#).value == ["a": 9_007_199_254_740_992])
        // What Quire writes, it reads back.
        let big: JSONValue = ["n": 1e20, "m": -123_456_789_012_345]
        #expect(try JSONParser.parse(JSONWriter.string(big)).value == big)
    }

    // MARK: Files that are not regular files

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func loadProblems(_ path: String) -> [String] {
        do {
            _ = try Flow.load(contentsOf: path)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test(.timeLimit(.minutes(1))) func aNamedPipeIsSaidToBeOneAndNeverWaitedOn() throws {
        let fifo = try temporaryFolder().appendingPathComponent("pipe.json").path
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(loadProblems(fifo) == ["\(fifo): cannot read the file: it is a named pipe (FIFO), not a regular file"])
    }

    @Test func aDeviceIsSaidToBeOne() {
        #expect(loadProblems("/dev/null") == ["/dev/null: cannot read the file: it is a character device, not a regular file"])
    }

    @Test func aFolderALinkToNothingAndALinkLoopSayWhatTheyAre() throws {
        let folder = try temporaryFolder()
        #expect(loadProblems(folder.path) == ["\(folder.path): cannot read the file: it is a directory"])
        let dangling = folder.appendingPathComponent("dangling.json").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "nowhere.json")
        #expect(
            loadProblems(dangling) == ["\(dangling): cannot read the file: it is a symbolic link to nothing (its target does not exist)"])
        let loop = folder.appendingPathComponent("loop.json").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "loop.json")
        #expect(loadProblems(loop) == ["\(loop): cannot read the file: too many levels of symbolic links (a link loop)"])
        let missing = folder.appendingPathComponent("missing.json").path
        #expect(loadProblems(missing) == ["\(missing): cannot read the file: it does not exist"])
        try Data("{}".utf8).write(to: folder.appendingPathComponent("file.json"))
        let underAFile = folder.appendingPathComponent("file.json/x.json").path
        #expect(loadProblems(underAFile) == ["\(underAFile): cannot read the file: a part of its path is not a directory"])
    }

    @Test func aFileTooLargeIsRejectedBeforeItIsRead() throws {
        let file = try temporaryFolder().appendingPathComponent("big.json")
        try Data(repeating: 0x20, count: 1001).write(to: file)
        #expect(throws: DocumentError.self) { try Flow.readDocument(file.path, limits: JSONLimits(documentBytes: 1000)) }
        do {
            _ = try Flow.readDocument(file.path, limits: JSONLimits(documentBytes: 1000))
        } catch {
            #expect(error.diagnostics.map(\.description) == ["\(file.path): the document is 1001 bytes; the limit is 1000"])
        }
        #expect(try Flow.readDocument(file.path, limits: JSONLimits(documentBytes: 1001)).count == 1001)
    }

    // MARK: Linear costs

    /// The reference: optimal string alignment distance over the whole table.
    func fullDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    @Test func theBandedDistanceAgreesWithTheFullOneUpToItsLimit() {
        let seed: UInt64 = 0x5EED
        var generator = SplitMix64(seed: seed)
        for _ in 0..<3000 {
            let alphabet: [UInt8] = Array("abc".utf8)
            let a = (0..<Int.random(in: 0...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let b = (0..<Int.random(in: 0...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            for limit in 1...3 {
                let full = fullDistance(a, b)
                let banded = DocumentReader.editDistance(a, b, limit: limit)
                #expect(banded == min(full, limit + 1), "seed \(seed): \(a) \(b) limit \(limit)")
            }
        }
    }

    @Test func didYouMeanStillFindsTypos() {
        #expect(DocumentReader.closest(to: "tapp", in: ["tap", "type", "tick"]) == "tap")
        #expect(DocumentReader.closest(to: "valueChange", in: ["valueChanged", "draftChanged"]) == "valueChanged")
        #expect(DocumentReader.closest(to: "fcous", in: ["focus", "values"]) == "focus")
        #expect(DocumentReader.closest(to: "zzzzzz", in: ["focus", "values"]) == nil)
    }

    @Test func didYouMeanOnAHugeWordCostsNoMoreThanOnAShortOne() {
        let huge = String(repeating: "x", count: 65_000)
        let candidates = (0..<50).map { "candidate\($0)" } + [String(repeating: "x", count: 64_999)]
        #expect(DocumentReader.closest(to: huge, in: candidates) == nil)
        #expect(DocumentReader.closest(to: String(huge.prefix(64_999)), in: candidates) == nil)
        // Comparing 65,000 characters with each candidate took 0.15 s per call; its time (bounded
        // by the 128-byte cap on names) is a row of the benchmark suite.
    }

    @Test func aDocumentListsItsFirstHundredProblemsAndCountsTheRest() {
        var reader = DocumentReader(file: "f.json", bytes: Array("{}".utf8))
        for index in 0..<250 { reader.error(.root + "k\(index)", "problem \(index)") }
        let diagnostics = reader.diagnostics()
        #expect(diagnostics.count == DocumentReader.diagnosticLimit + 1)
        #expect(diagnostics.first?.message == "problem 0")
        #expect(diagnostics.last?.description == "f.json: … and 150 more problems (a file lists its first 100)")
        // A document with a million problems keeps a bounded number of them and counts the rest.
        var many = DocumentReader(file: "g.json", bytes: Array("{}".utf8))
        for index in 0..<(DocumentReader.keptProblemLimit + 5) { many.error(.root, "problem \(index)") }
        #expect(many.problems.count == DocumentReader.keptProblemLimit)
        #expect(
            many.diagnostics().last?.description
                == "g.json: … and \(DocumentReader.keptProblemLimit - 100 + 5) more problems (a file lists its first 100)")
    }

    @Test func aFlowWithThousandsOfProblemsIsRejectedQuicklyWithACountedList() {
        // Five pages of 1,000 fields (a page holds at most 1,000), each field with an unknown key.
        let pages = (0..<5).map { page in
            let fields = (0..<1000).map { #"{"id": "f\#(page)_\#($0)", "kind": "text", "colour": 1}"# }.joined(separator: ",")
            return #"{"id": "p\#(page)", "fields": [\#(fields)]}"#
        }.joined(separator: ",")
        let text = #"{"format": "quire.flow/1", "id": "x", "pages": [\#(pages)]}"#
        let lines = problems(text)
        #expect(lines.count == 101)
        #expect(lines.last == "f.json: … and 4900 more problems (a file lists its first 100)")
    }
}
