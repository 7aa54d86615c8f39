import QuireCore

/// `quire coverage merge`: `quire.coverage/1` files read back and added up, for a suite run in
/// shards (or on several machines). Each flow's counters are read against its flow file, loaded
/// again, so the merged coverage is a `FlowCoverage` like the one a single run makes, and its
/// summary, JSON and lcov come out of the same code.
extension CoverageReport {
    /// Each file's flows, added up by flow file (`scripts` too), sorted by file as `quire test`
    /// sorts them. Flow files are named as `quire test` wrote them: relative paths are read
    /// from the working folder, so the merge runs where the tests ran.
    public static func merge(_ paths: [String]) throws(DocumentError) -> [FlowCoverage] {
        var merged: [String: FlowCoverage] = [:]
        var problems: [Diagnostic] = []
        for path in paths {
            do {
                for coverage in try read(Flow.readDocument(path), file: path) {
                    if merged[coverage.file] == nil {
                        merged[coverage.file] = coverage
                    } else {
                        merged[coverage.file]!.merge(coverage)
                    }
                }
            } catch {
                problems += error.diagnostics
            }
        }
        if !problems.isEmpty { throw DocumentError(problems) }
        return merged.keys.sorted().map { merged[$0]! }
    }

    /// The flows of one `quire.coverage/1` document. Every counter `json` writes is read back;
    /// an entry that does not fit its flow file as it is now (another flow, pages or
    /// conditions changed) is bad input, since adding it up would count the wrong items.
    public static func read(_ bytes: [UInt8], file: String) throws(DocumentError) -> [FlowCoverage] {
        var (value, reader) = try DocumentReader.parse(file: file, bytes: bytes)
        guard case .object(let root) = value, root["format"] == .string(format) else {
            reader.error(.root, "not a coverage file: it has no \"format\": \"\(format)\" (write one with quire test --coverage-json)")
            throw DocumentError(reader.diagnostics())
        }
        var flows: [FlowCoverage] = []
        var flowProblems: [Diagnostic] = []
        for (index, entry) in (reader.array(root["flows"] ?? .null, at: .root + "flows", what: "flows") ?? []).enumerated() {
            let at = JSONPath.root + "flows" + index
            guard let object = reader.object(entry, at: at, what: "a flow's coverage"),
                let flowFile = reader.string(object["file"] ?? .null, at: at + "file", what: "file")
            else { continue }
            let flow: Flow
            do {
                flow = try Flow.load(contentsOf: flowFile)
            } catch {
                reader.error(at + "file", "the flow '\(flowFile)' cannot be loaded (its problems follow)")
                flowProblems += error.diagnostics
                continue
            }
            var coverage = FlowCoverage(file: FileWalker.normalized(flowFile), flow: flow)
            var fits = true
            func count(_ value: JSONValue?, at path: JSONPath) -> Int {
                guard let value, let number = reader.number(value, at: path, what: "a count", in: 0...9_007_199_254_740_992) else {
                    return 0
                }
                guard let whole = JSONValue.number(number).intValue else {
                    reader.error(path, "a count must be a whole number, not \(JSONWriter.number(number))")
                    return 0
                }
                return whole
            }
            func mismatch(_ path: JSONPath, _ what: String) {
                reader.error(path, "\(what) does not match the flow file '\(flowFile)' as it is now; merge coverage of the same flow")
                fits = false
            }
            if object["id"] != .string(flow.id) { mismatch(at + "id", "the flow id") }
            coverage.scripts = count(object["scripts"], at: at + "scripts")
            let pages = object["pages"]?.arrayValue ?? []
            if pages.count != flow.pages.count { mismatch(at + "pages", "the list of pages") }
            for (page, item) in pages.enumerated() where fits {
                if item["id"] != .string(flow.pages[page].id) { mismatch(at + "pages" + page, "the page") }
                coverage.pageCurrent[page] = count(item["current"], at: at + "pages" + page + "current")
            }
            let fields = object["fields"]?.arrayValue ?? []
            if fields.count != flow.fields.count { mismatch(at + "fields", "the list of fields") }
            for (field, item) in fields.enumerated() where fits {
                let itemAt = at + "fields" + field
                if item["id"] != .string(flow.fields[field].id) { mismatch(itemAt, "the field") }
                coverage.fieldFocused[field] = count(item["focused"], at: itemAt + "focused")
                coverage.fieldEdited[field] = count(item["edited"], at: itemAt + "edited")
                for code in coverage.possibleCodes(field) {
                    coverage.codes[field * FlowCoverage.codeCount + ValidationCode.counted.firstIndex(of: code)!] =
                        count(item["codes"]?[code.rawValue], at: itemAt + "codes" + code.rawValue)
                }
            }
            let conditions = object["conditions"]?.arrayValue ?? []
            if conditions.count != coverage.sites.count { mismatch(at + "conditions", "the list of conditions") }
            for (site, item) in conditions.enumerated() where fits {
                let itemAt = at + "conditions" + site
                if item["path"] != .string(coverage.sites[site].path.description) { mismatch(itemAt, "the condition") }
                coverage.siteTrue[site] = count(item["true"], at: itemAt + "true")
                coverage.siteFalse[site] = count(item["false"], at: itemAt + "false")
            }
            for reason in coverage.possibleRefusals {
                coverage.refusals[Refusal.counted.firstIndex(of: reason)!] =
                    count(object["refusals"]?[reason.rawValue], at: at + "refusals" + reason.rawValue)
            }
            for item in coverage.possibleAccessory {
                coverage.accessory[AccessoryItem.counted.firstIndex(of: item)!] =
                    count(object["accessory"]?[item.rawValue], at: at + "accessory" + item.rawValue)
            }
            for kind in coverage.possibleMoves {
                coverage.moves[MoveKind.counted.firstIndex(of: kind)!] = count(
                    object["moves"]?[kind.rawValue], at: at + "moves" + kind.rawValue)
            }
            if fits { flows.append(coverage) }
        }
        if reader.hasProblems { throw DocumentError(reader.diagnostics() + flowProblems) }
        return flows
    }
}
