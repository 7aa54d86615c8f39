import Foundation
import Testing

/// The bad-input corpus (`Tests/BadInputTests/Corpus/`, described in its README.md): one folder
/// per case, each with a `case` file saying what to run and exactly what must come out.
struct BadInputCase: Sendable, CustomTestStringConvertible {
    /// `area/name`, the case's folder under Corpus/.
    var name: String
    var folder: URL
    /// The `#` lines at the top: what the case is about.
    var about: [String]
    /// `quire …` arguments, or `capi`.
    var run: [String]
    /// Setup lines (`fifo:`, `symlink:`, `copy:`, `mkdir:`), in order.
    var setup: [(verb: String, argument: String)]
    var exit: Int32?
    /// `slow: WHY`: left out of the sanitizer runs (QUIRE_BAD_INPUTS_SKIP_SLOW=1), which are many
    /// times slower; the reason says why that loses nothing.
    var slow: String?
    /// Named blocks (`--- stdout`, `--- stderr`, `--- calls`, `--- transcript`): their lines.
    var blocks: [String: [String]]
    /// The order the blocks were written in.
    var blockOrder: [String]

    var testDescription: String { name }
    var isCAPI: Bool { run == ["capi"] }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    /// Every case, sorted by name.
    static let all: [BadInputCase] = {
        let manager = FileManager.default
        var cases: [BadInputCase] = []
        let areas = ((try? manager.contentsOfDirectory(atPath: corpus.path)) ?? []).filter { !$0.hasPrefix("_") }.sorted()
        for area in areas {
            let areaFolder = corpus.appendingPathComponent(area)
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: areaFolder.path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            for name in ((try? manager.contentsOfDirectory(atPath: areaFolder.path)) ?? []).sorted() {
                let folder = areaFolder.appendingPathComponent(name)
                guard let text = try? String(contentsOf: folder.appendingPathComponent("case"), encoding: .utf8) else { continue }
                cases.append(parse(text, name: "\(area)/\(name)", folder: folder))
            }
        }
        return cases
    }()

    static func parse(_ text: String, name: String, folder: URL) -> BadInputCase {
        var result = BadInputCase(
            name: name, folder: folder, about: [], run: [], setup: [], exit: nil, slow: nil, blocks: [:], blockOrder: [])
        var block: String? = nil
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        for line in lines {
            if line.hasPrefix("--- ") {
                let title = String(line.dropFirst(4))
                block = title
                result.blocks[title] = []
                result.blockOrder.append(title)
            } else if let block {
                result.blocks[block, default: []].append(line)
            } else if line.hasPrefix("#") {
                result.about.append(String(line.drop(while: { $0 == "#" || $0 == " " })))
            } else if line.hasPrefix("run: ") {
                result.run = line.dropFirst(5).split(separator: " ").map(String.init)
            } else if line.hasPrefix("exit: ") {
                result.exit = Int32(line.dropFirst(6))
            } else if line.hasPrefix("slow: ") {
                result.slow = String(line.dropFirst(6))
            } else if let colon = line.firstIndex(of: ":"), !line.isEmpty {
                result.setup.append((String(line[..<colon]), String(line[line.index(after: colon)...].drop(while: { $0 == " " }))))
            }
        }
        return result
    }

    /// The case file with `exit` and the output blocks replaced (QUIRE_UPDATE_BAD_INPUTS=1).
    func rewritten(exit newExit: Int32?, outputs: [(String, [String])]) throws -> String {
        let text = try String(contentsOf: folder.appendingPathComponent("case"), encoding: .utf8)
        var head: [String] = []
        var inputBlocks: [String] = []
        var block: String? = nil
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("--- ") { block = String(line.dropFirst(4)) }
            if let block {
                if block == "calls" { inputBlocks.append(line) }
                continue
            }
            if line.hasPrefix("exit: ") { continue }
            head.append(line)
        }
        while head.last == "" { head.removeLast() }
        while inputBlocks.last == "" { inputBlocks.removeLast() }
        if let newExit { head.append("exit: \(newExit)") }
        var out = head + inputBlocks
        for (title, lines) in outputs {
            out.append("--- \(title)")
            out += lines
        }
        return out.joined(separator: "\n") + "\n"
    }
}

/// Makes a case's inputs in a scratch copy of the corpus: `NAME.in` files are expanded into
/// `NAME`, then the setup lines run. Directives in `.in` files and setup lines:
/// `@@repeat N TEXT@@` (TEXT N times; TEXT is everything after the one space that follows N),
/// `@@count N TEXT@@` (the same, with each `#` replaced by 0, 1, …) and `@@bytes HH HH …@@`
/// (raw bytes, any value).
enum CaseMaker {
    /// The bytes a template stands for.
    static func expand(_ template: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(template.count)
        let marker: [UInt8] = Array("@@".utf8)
        var index = 0
        func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard template.count >= needle.count else { return nil }
            var at = start
            while at + needle.count <= template.count {
                if template[at] == needle[0] && Array(template[at..<(at + needle.count)]) == needle { return at }
                at += 1
            }
            return nil
        }
        while index < template.count {
            guard let open = find(marker, from: index) else {
                out += template[index...]
                break
            }
            out += template[index..<open]
            guard let close = find(marker, from: open + 2) else { throw CaseError("an @@ directive is not closed") }
            let directive = String(decoding: template[(open + 2)..<close], as: UTF8.self)
            let parts = directive.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            switch parts.first {
            case "repeat":
                guard parts.count == 3, let count = Int(parts[1]) else { throw CaseError("@@repeat N TEXT@@, not @@\(directive)@@") }
                let text = Array(parts[2].utf8)
                for _ in 0..<count { out += text }
            case "count":
                // TEXT N times, each `#` in it replaced by the copy's number (0, 1, …): unique ids.
                guard parts.count == 3, let count = Int(parts[1]) else { throw CaseError("@@count N TEXT@@, not @@\(directive)@@") }
                let pieces = parts[2].split(separator: "#", omittingEmptySubsequences: false).map { Array($0.utf8) }
                for number in 0..<count {
                    out += pieces[0]
                    for piece in pieces.dropFirst() {
                        out += Array(String(number).utf8)
                        out += piece
                    }
                }
            case "bytes":
                for hex in directive.split(separator: " ").dropFirst() {
                    guard let byte = UInt8(hex, radix: 16) else { throw CaseError("@@bytes@@ takes hex bytes, not '\(hex)'") }
                    out.append(byte)
                }
            default:
                throw CaseError("unknown directive @@\(directive)@@")
            }
            index = close + 2
        }
        return out
    }

    /// A path named in a setup line, expanded (names may hold any byte but `/` and NUL).
    static func path(_ text: String, in folder: URL) throws -> String {
        let bytes = try expand(Array(text.utf8))
        return folder.path + "/" + String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `bytes` to a path given as raw bytes (a name need not be UTF-8).
    static func write(_ bytes: [UInt8], toRaw path: [UInt8]) throws {
        let descriptor = (path + [0]).withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        guard descriptor >= 0 else { throw CaseError("cannot create \(String(decoding: path, as: UTF8.self)): errno \(errno)") }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            guard count > 0 else { throw CaseError("cannot write: errno \(errno)") }
            written += count
        }
    }

    static func prepare(_ testCase: BadInputCase, in folder: URL) throws {
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".in") {
            let source = folder.appendingPathComponent(name)
            let bytes = try expand([UInt8](Data(contentsOf: source)))
            try Data(bytes).write(to: folder.appendingPathComponent(String(name.dropLast(3))))
        }
        for (verb, argument) in testCase.setup {
            let sides = argument.components(separatedBy: " -> ")
            switch (verb, sides.count) {
            case ("fifo", 1):
                let path = try path(sides[0], in: folder)
                guard mkfifo(path, 0o644) == 0 else { throw CaseError("mkfifo \(path): errno \(errno)") }
            case ("mkdir", 1):
                try manager.createDirectory(atPath: try path(sides[0], in: folder), withIntermediateDirectories: true)
            case ("symlink", 2):
                // symlink: NAME -> TARGET (the target as written, relative to the link).
                let target = String(decoding: try expand(Array(sides[1].utf8)), as: UTF8.self)
                let link = try path(sides[0], in: folder)
                guard symlink(target, link) == 0 else { throw CaseError("symlink \(link): errno \(errno)") }
            case ("copy", 2):
                // copy: FILE -> NAME (NAME may hold any byte, e.g. a control character).
                let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(sides[0])))
                try write(bytes, toRaw: Array(folder.path.utf8) + [UInt8(ascii: "/")] + (try expand(Array(sides[1].utf8))))
            default:
                throw CaseError("unknown setup line '\(verb): \(argument)'")
            }
        }
    }
}

struct CaseError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
