import QuireCore

/// `quire coverage merge`: `quire.coverage/1` files read back and added up, for a suite run in
/// shards (or on several machines). Each flow's counters are read against its flow file, loaded
/// once per merge, so the merged coverage is a `FlowCoverage` like the one a single run makes, and
/// its summary, JSON and lcov come out of the same code.
extension CoverageReport {
    /// The flows a merge has read, by their path as `quire test` names them (`FileWalker.normalized`):
    /// each is read once however many entries name it, and entries that name one file in two
    /// spellings (`a/../flow.json`, `flow.json`) count into one flow.
    public struct MergeFlows {
        enum Loaded {
            /// Empty coverage of the flow, copied for each entry.
            case flow(FlowCoverage)
            /// Why the file is not a flow, in words that quote nothing of it.
            case problem(String)
        }

        var loaded: [String: Loaded] = [:]

        public init() {}

        mutating func load(_ file: String) -> Loaded {
            if let known = loaded[file] { return known }
            let result: Loaded
            do {
                let bytes = try Flow.readDocument(file)
                do {
                    result = .flow(
                        FlowCoverage(file: file, flow: try Flow.load(bytes: bytes, file: file, folder: Flow.folder(ofFile: file))))
                } catch {
                    // Its problems would quote the file (the file may be anything: an entry names
                    // it), so only how many there are and where the first is.
                    let problems = error.diagnostics
                    let first =
                        problems.first.map {
                            $0.position.line > 0 ? ", the first at line \($0.position.line), column \($0.position.column)" : ""
                        } ?? ""
                    let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
                    result = .problem("it is not a valid quire.flow/1 flow (\(count)\(first); quire check lists them)")
                }
            } catch {
                // Reading problems name the file and what it is (a folder, a named pipe, too large), never its content.
                result = .problem(error.diagnostics.first?.message ?? "cannot read the file")
            }
            loaded[file] = result
            return result
        }
    }

    /// Each file's flows, added up by flow file (`scripts` too), sorted by file as `quire test`
    /// sorts them. Flow files are named as `quire test` wrote them: relative paths are read
    /// from the working folder, so the merge runs where the tests ran.
    public static func merge(_ paths: [String]) throws(DocumentError) -> [FlowCoverage] {
        var merged: [String: FlowCoverage] = [:]
        var flows = MergeFlows()
        var problems: [Diagnostic] = []
        for path in paths {
            do {
                for coverage in try read(Flow.readDocument(path), file: path, flows: &flows) {
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
        var flows = MergeFlows()
        return try read(bytes, file: file, flows: &flows)
    }

    /// `read`, with the flows read for other files of the same merge.
    public static func read(_ bytes: [UInt8], file: String, flows: inout MergeFlows) throws(DocumentError) -> [FlowCoverage] {
        var (value, reader) = try DocumentReader.parse(file: file, bytes: bytes)
        guard case .object(let root) = value, root["format"] == .string(format) else {
            reader.error(.root, "not a coverage file: it has no \"format\": \"\(format)\" (write one with quire test --coverage-json)")
            throw DocumentError(reader.diagnostics())
        }
        var read: [FlowCoverage] = []
        for (index, entry) in (reader.array(root["flows"] ?? .null, at: .root + "flows", what: "flows") ?? []).enumerated() {
            let at = JSONPath.root + "flows" + index
            guard let object = reader.object(entry, at: at, what: "a flow's coverage"),
                let written = reader.string(object["file"] ?? .null, at: at + "file", what: "file")
            else { continue }
            if written.isEmpty || written.utf8.contains(0) {
                reader.error(at + "file", "a flow file's path must be a file name, not empty and without NUL characters")
                continue
            }
            // Read as `quire test` names it: `.` and `folder/..` taken out, so that `link/..`
            // does not lead elsewhere through a link, and two spellings of one file are one flow.
            let flowFile = FileWalker.normalized(written)
            let flow: Flow
            var coverage: FlowCoverage
            switch flows.load(flowFile) {
            case .problem(let why):
                reader.error(at + "file", "the flow '\(written)' cannot be loaded: \(why)")
                continue
            case .flow(let template):
                coverage = template
                flow = template.flow
            }
            var fits = true
            func count(_ value: JSONValue?, at path: JSONPath) -> Int {
                guard let value, let number = reader.number(value, at: path, what: "a count", in: 0...Double(FlowCoverage.maxCount)) else {
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
            // The lists' lengths first: an entry that does not fit costs no more than its size.
            let pages = object["pages"]?.arrayValue ?? []
            let fields = object["fields"]?.arrayValue ?? []
            let conditions = object["conditions"]?.arrayValue ?? []
            if object["id"] != .string(flow.id) { mismatch(at + "id", "the flow id") }
            if pages.count != flow.pages.count { mismatch(at + "pages", "the list of pages") }
            if fields.count != flow.fields.count { mismatch(at + "fields", "the list of fields") }
            if conditions.count != coverage.sites.count { mismatch(at + "conditions", "the list of conditions") }
            guard fits else { continue }
            coverage.scripts = count(object["scripts"], at: at + "scripts")
            for (page, item) in pages.enumerated() where fits {
                if item["id"] != .string(flow.pages[page].id) { mismatch(at + "pages" + page, "the page") }
                coverage.pageCurrent[page] = count(item["current"], at: at + "pages" + page + "current")
            }
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
            for outcome in coverage.possibleApplyOutcomes {
                coverage.applies[ApplyOutcome.counted.firstIndex(of: outcome)!] = count(
                    object["applies"]?[outcome.rawValue], at: at + "applies" + outcome.rawValue)
            }
            if fits { read.append(coverage) }
        }
        if reader.hasProblems { throw DocumentError(reader.diagnostics()) }
        return read
    }
}
