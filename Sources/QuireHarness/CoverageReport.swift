import Foundation
import QuireCore

/// `quire test --coverage`'s outputs: the console summary, `quire.coverage/1` JSON and an lcov
/// tracefile over the flow files' own lines (docs/coverage.md).
public enum CoverageReport {
    public static let format = "quire.coverage/1"

    /// Where each item of a flow is in its file: pages, fields and conditions.
    struct Positions {
        var pages: [SourcePosition]
        var fields: [SourcePosition]
        var sites: [SourcePosition]
        /// The flow's bytes are known (else every position is 0:0: a flow not read from a file).
        var known: Bool

        init(_ coverage: FlowCoverage) {
            let flow = coverage.flow
            let pagePaths = flow.pages.indices.map { JSONPath.root + "pages" + $0 }
            let fieldPaths = flow.fields.indices.map { flow.path(ofField: $0) }
            let sitePaths = coverage.sites.map(\.path)
            // The bytes the flow was read from, not the file as it is now: it may have changed
            // since, and positions must point at the items that were counted.
            guard let bytes = flow.sourceBytes else {
                let none = SourcePosition(line: 0, column: 0)
                pages = pagePaths.map { _ in none }
                fields = fieldPaths.map { _ in none }
                sites = sitePaths.map { _ in none }
                known = false
                return
            }
            let locations = JSONParser.locate(bytes, paths: pagePaths + fieldPaths + sitePaths)
            let offsets = (pagePaths + fieldPaths + sitePaths).map { locations.valueOffset($0) }
            let positions = SourcePosition.positions(of: offsets, in: bytes)
            let all = offsets.map { positions[$0]! }
            pages = Array(all[0..<pagePaths.count])
            fields = Array(all[pagePaths.count..<(pagePaths.count + fieldPaths.count)])
            sites = Array(all[(pagePaths.count + fieldPaths.count)...])
            known = true
        }
    }

    // MARK: Console

    /// The summary lines: per flow, each category's percentage, then every item not covered at
    /// `file:line:column` (at most `gapLimit` per flow, then a count).
    public static func console(_ flows: [FlowCoverage], gapLimit: Int = 50) -> [String] {
        var lines: [String] = []
        for coverage in flows {
            let scripts = coverage.scripts == 1 ? "1 script" : "\(coverage.scripts) scripts"
            lines.append(Printable.line("coverage of \(coverage.file) (flow '\(coverage.flow.id)', \(scripts)):"))
            for category in coverage.categories {
                let name = category.name.padding(toLength: 11, withPad: " ", startingAt: 0)
                lines.append("  \(name) \(percent(category.percent).leftPadded(4)) (\(category.covered)/\(category.total))")
            }
            let gaps = coverage.gaps
            if !gaps.isEmpty {
                var reader = DocumentReader(file: coverage.file, bytes: coverage.flow.sourceBytes ?? [])
                var whole: [String] = []
                for gap in gaps {
                    if gap.path == .root {
                        whole.append(Printable.line("\(coverage.file): \(gap.message)"))
                    } else {
                        reader.error(gap.path, gap.message)
                    }
                }
                // Without the flow's bytes (a flow not read from a file), the paths alone.
                let located =
                    reader.bytes.isEmpty
                    ? gaps.filter { $0.path != .root }.map { Printable.line("\(coverage.file): \($0.path): \($0.message)") }
                    : reader.diagnostics().map(\.description)
                let listed = located + whole
                lines.append("  not covered:")
                for line in listed.prefix(gapLimit) { lines.append("    " + line) }
                if listed.count > gapLimit { lines.append("    … and \(listed.count - gapLimit) more") }
            }
        }
        return lines
    }

    static func percent(_ value: Double) -> String { "\(Int(value.rounded(.down)))%" }

    // MARK: JSON

    public static func json(_ flows: [FlowCoverage]) -> JSONValue {
        var list: [JSONValue] = []
        for coverage in flows {
            let flow = coverage.flow
            let positions = Positions(coverage)
            var summary = JSONObject()
            for category in coverage.categories {
                summary.append(category.name, ["covered": .number(Double(category.covered)), "total": .number(Double(category.total))])
            }
            func located(_ path: JSONPath, _ position: SourcePosition) -> JSONObject {
                var object = JSONObject()
                object.append("path", .string(path.description))
                object.append("line", .number(Double(position.line)))
                object.append("column", .number(Double(position.column)))
                return object
            }
            let pages: [JSONValue] = flow.pages.indices.map { page in
                var object = JSONObject()
                object.append("id", .string(flow.pages[page].id))
                for (key, value) in located(JSONPath.root + "pages" + page, positions.pages[page]) { object.append(key, value) }
                object.append("current", .number(Double(coverage.pageCurrent[page])))
                return .object(object)
            }
            let fields: [JSONValue] = flow.fields.indices.map { field in
                var object = JSONObject()
                object.append("id", .string(flow.fields[field].id))
                object.append("page", .string(flow.pages[flow.fields[field].page].id))
                for (key, value) in located(flow.path(ofField: field), positions.fields[field]) { object.append(key, value) }
                object.append("focused", .number(Double(coverage.fieldFocused[field])))
                object.append("edited", .number(Double(coverage.fieldEdited[field])))
                var codes = JSONObject()
                for code in coverage.possibleCodes(field) {
                    codes.append(code.rawValue, .number(Double(coverage.codeHits(field: field, code))))
                }
                object.append("codes", .object(codes))
                return .object(object)
            }
            let conditions: [JSONValue] = coverage.sites.indices.map { at in
                let site = coverage.sites[at]
                var object = located(site.path, positions.sites[at])
                object.append("page", .string(flow.pages[site.page].id))
                object.append("field", site.field.map { .string(flow.fields[$0].id) } ?? .null)
                object.append("key", .string(site.key.rawValue))
                object.append("true", .number(Double(coverage.siteTrue[at])))
                object.append("false", .number(Double(coverage.siteFalse[at])))
                return .object(object)
            }
            var refusals = JSONObject()
            for reason in coverage.possibleRefusals {
                refusals.append(reason.rawValue, .number(Double(coverage.refusals[Refusal.counted.firstIndex(of: reason)!])))
            }
            var accessory = JSONObject()
            for item in coverage.possibleAccessory {
                accessory.append(item.rawValue, .number(Double(coverage.accessory[AccessoryItem.counted.firstIndex(of: item)!])))
            }
            var moves = JSONObject()
            for kind in coverage.possibleMoves {
                moves.append(kind.rawValue, .number(Double(coverage.moves[MoveKind.counted.firstIndex(of: kind)!])))
            }
            var applies = JSONObject()
            for outcome in coverage.possibleApplyOutcomes {
                applies.append(outcome.rawValue, .number(Double(coverage.applies[ApplyOutcome.counted.firstIndex(of: outcome)!])))
            }
            var object = JSONObject()
            object.append("file", .string(coverage.file))
            object.append("id", .string(flow.id))
            object.append("scripts", .number(Double(coverage.scripts)))
            object.append("summary", .object(summary))
            object.append("pages", .array(pages))
            object.append("fields", .array(fields))
            object.append("conditions", .array(conditions))
            object.append("refusals", .object(refusals))
            object.append("accessory", .object(accessory))
            object.append("moves", .object(moves))
            if !applies.isEmpty { object.append("applies", .object(applies)) }
            list.append(.object(object))
        }
        var root = JSONObject()
        root.append("format", .string(format))
        root.append("flows", .array(list))
        return .object(root)
    }

    // MARK: lcov

    /// The name lcov gives a flow: its file's absolute path.
    static func lcovName(_ coverage: FlowCoverage, workingDirectory: String) -> String {
        coverage.file.hasPrefix("/") ? coverage.file : FileWalker.normalized(workingDirectory + "/" + coverage.file)
    }

    /// Why genhtml cannot be given `name` as a source file's name, or nil. lcov has no escapes:
    /// `SF:` is the path genhtml opens, so a name is written as it is or not at all. genhtml
    /// (lcov 1.16) writes names into its HTML as they are — a `"` ends an attribute, a `<` opens
    /// a tag — and a control character (escaped, or as it is) names no file it can open, which
    /// stops the whole report.
    public static func lcovNameProblem(_ name: String) -> String? {
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case 0x22, 0x26, 0x27, 0x3C, 0x3E:
                return "its path holds '\(scalar)', which genhtml writes into its HTML pages unescaped"
            case 0..<0x20, 0x7F...0x9F:
                let code = String(scalar.value, radix: 16, uppercase: true)
                return
                    "its path holds the control character U+\(String(repeating: "0", count: 4 - code.count) + code), by which genhtml cannot open the file (it stops the whole report)"
            case 0xFFFD:
                return "its path is not UTF-8 (or holds U+FFFD), so lcov cannot name the file genhtml is to open"
            default:
                continue
            }
        }
        return nil
    }

    /// One line per flow `lcov` leaves out, saying which and why (`lcovNameProblem`).
    public static func lcovLeftOut(_ flows: [FlowCoverage], workingDirectory: String = FileManager.default.currentDirectoryPath) -> [String]
    {
        flows.compactMap { coverage in
            let name = lcovName(coverage, workingDirectory: workingDirectory)
            return lcovNameProblem(name).map {
                Printable.line("the lcov coverage leaves out the flow '\(name)': \($0); rename it to render it with genhtml")
            }
        }
    }

    /// An lcov tracefile: one record per flow file (`SF:` its absolute path), a `DA` line per
    /// line of the file holding a page, a field or a condition (hits: the least of the items on
    /// that line — a page made current, a field focused or edited, a condition evaluated), and
    /// a `BRDA` pair per condition (branch 0: seen true, 1: seen false). A flow whose path genhtml
    /// cannot take is left out (`lcovLeftOut` says which).
    public static func lcov(_ flows: [FlowCoverage], workingDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        var text = ""
        for coverage in flows {
            let positions = Positions(coverage)
            guard positions.known else { continue }
            var lines: [Int: Int] = [:]
            func hit(_ line: Int, _ count: Int) { lines[line] = min(lines[line] ?? .max, count) }
            for page in coverage.flow.pages.indices { hit(positions.pages[page].line, coverage.pageCurrent[page]) }
            for field in coverage.flow.fields.indices {
                hit(positions.fields[field].line, coverage.fieldFocused[field] + coverage.fieldEdited[field])
            }
            for at in coverage.sites.indices { hit(positions.sites[at].line, coverage.siteTrue[at] + coverage.siteFalse[at]) }
            let file = lcovName(coverage, workingDirectory: workingDirectory)
            guard lcovNameProblem(file) == nil else { continue }
            text += "TN:\nSF:\(file)\n"
            var branchesHit = 0
            for at in coverage.sites.indices {
                let line = positions.sites[at].line
                text += "BRDA:\(line),\(at),0,\(coverage.siteTrue[at])\n"
                text += "BRDA:\(line),\(at),1,\(coverage.siteFalse[at])\n"
                if coverage.siteTrue[at] > 0 { branchesHit += 1 }
                if coverage.siteFalse[at] > 0 { branchesHit += 1 }
            }
            text += "BRF:\(coverage.sites.count * 2)\nBRH:\(branchesHit)\n"
            for line in lines.keys.sorted() { text += "DA:\(line),\(lines[line]!)\n" }
            text += "LF:\(lines.count)\nLH:\(lines.values.count { $0 > 0 })\nend_of_record\n"
        }
        return text
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
