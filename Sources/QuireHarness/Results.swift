import Foundation
import QuireCore

/// `quire test --results FILE`: a shard's results as `quire.results/1` JSON, everything the JUnit
/// and TAP reports are made of, so `quire report merge` can write the reports one unsharded run
/// writes (docs/sharding.md). Each result carries its place in the stable order of the whole
/// suite (`order`), so the shards' results interleave back exactly.
public final class ResultsReporter: Reporter {
    let sink: OutputSink
    let shard: (index: Int, count: Int)
    let total: Int
    let roots: [String]
    var seen = 0
    var shardCandidates = 0
    var results: [JSONValue] = []

    /// `total`: the candidates of the whole suite (before sharding); `roots`: the paths given.
    public init(sink: OutputSink, shard: (index: Int, count: Int), total: Int, roots: [String]) {
        self.sink = sink
        self.shard = shard
        self.total = total
        self.roots = roots
    }

    public static let format = "quire.results/1"

    public func begin(candidates: Int) { shardCandidates = candidates }

    public func report(_ result: ScriptResult) {
        let local = seen
        seen += 1
        if case .skipped = result.status { return }
        // A candidate's place in the whole suite; a folder with no script (reported after every
        // candidate) comes after them all, by the folder's place on the command line.
        let order: Int
        if local < shardCandidates {
            order = (shard.index - 1) + local * shard.count
        } else {
            order = total + (roots.firstIndex(of: result.file) ?? roots.count)
        }
        results.append(Self.json(result, order: order))
    }

    public func finish(_ summary: Summary) {
        var root = JSONObject()
        root.append("format", .string(Self.format))
        root.append("shard", ["index": .number(Double(shard.index)), "count": .number(Double(shard.count))])
        root.append("candidates", .number(Double(total)))
        root.append("roots", .array(roots.map { .string($0) }))
        root.append("milliseconds", .number(summary.milliseconds.rounded()))
        root.append("results", .array(results))
        sink.write(JSONWriter.string(.object(root), style: .pretty) + "\n")
        sink.flush()
    }

    static func json(_ result: ScriptResult, order: Int) -> JSONValue {
        var object = JSONObject()
        object.append("order", .number(Double(order)))
        object.append("file", .string(result.file))
        object.append("name", .string(result.name))
        object.append("classname", .string(result.id.classname))
        object.append("testName", .string(result.id.name))
        if let description = result.description { object.append("description", .string(description)) }
        object.append("milliseconds", .number(result.milliseconds))
        switch result.status {
        case .passed, .skipped:
            object.append("status", "passed")
        case .failed(let failure):
            object.append("status", "failed")
            var item = JSONObject()
            item.append("step", .number(Double(failure.step)))
            item.append("location", .string(failure.location))
            item.append("stepJSON", .string(failure.stepJSON))
            item.append("lines", .array(failure.lines.map { .string($0) }))
            item.append(
                "recent",
                .array(
                    failure.recent.map { event in
                        [
                            "step": .number(Double(event.step)), "json": .string(event.json),
                            "notifications": .array(event.notifications.map { .string($0) }),
                        ]
                    }))
            object.append("failure", .object(item))
        case .bad(let diagnostics):
            object.append("status", "bad")
            object.append("problems", .array(diagnostics.map(Self.json)))
        }
        object.append(
            "steps",
            .array(
                result.steps.map { step in
                    ["index": .number(Double(step.index)), "json": .string(step.json), "milliseconds": .number(step.milliseconds)]
                }))
        return .object(object)
    }

    static func json(_ diagnostic: Diagnostic) -> JSONValue {
        var object = JSONObject()
        object.append("file", .string(diagnostic.file))
        object.append("line", .number(Double(diagnostic.position.line)))
        object.append("column", .number(Double(diagnostic.position.column)))
        object.append(
            "path",
            .array(
                diagnostic.path.components.map { component in
                    switch component {
                    case .key(let key): .string(key)
                    case .index(let index): .number(Double(index))
                    }
                }))
        object.append("message", .string(diagnostic.message))
        return .object(object)
    }
}

/// `quire report merge`: shards' `quire.results/1` files read back into results, in the order
/// of the whole suite, for the same reporters `quire test` writes with.
public enum ResultsMerge {
    public struct Merged: Sendable {
        public var results: [ScriptResult]
        public var summary: Summary
    }

    /// Reads every file; throws the problems (at their positions) when a file is not a results
    /// file, the shards are of different suites, a shard is given twice or one is missing.
    public static func merge(_ paths: [String]) throws(DocumentError) -> Merged {
        var problems: [Diagnostic] = []
        var placed: [(order: Int, result: ScriptResult)] = []
        var suite: (count: Int, candidates: Int, roots: JSONValue)? = nil
        var shards: [Int: String] = [:]
        var summary = Summary()
        for path in paths {
            let bytes: [UInt8]
            let value: JSONValue
            var reader: DocumentReader
            do {
                bytes = try Flow.readDocument(path, limits: .default)
                (value, reader) = try DocumentReader.parse(file: path, bytes: bytes)
            } catch {
                problems += error.diagnostics
                continue
            }
            func fail(_ at: JSONPath, _ message: String) { reader.error(at, message) }
            guard value["format"] == .string(ResultsReporter.format),
                case .number(let index)? = value["shard"]?["index"], case .number(let count)? = value["shard"]?["count"],
                case .number(let candidates)? = value["candidates"], let roots = value["roots"],
                case .array(let list)? = value["results"]
            else {
                fail(.root, "not a \(ResultsReporter.format) file (quire test --results FILE writes one)")
                problems += reader.diagnostics()
                continue
            }
            if let suite, suite.count != Int(count) || suite.candidates != Int(candidates) || suite.roots != roots {
                fail(
                    JSONPath.root + "shard",
                    "this shard is of another run: \(Int(count)) shards of \(Int(candidates)) files, not \(suite.count) of \(suite.candidates) with the same paths"
                )
            }
            suite = suite ?? (Int(count), Int(candidates), roots)
            if let other = shards[Int(index)] {
                fail(JSONPath.root + "shard" + "index", "shard \(Int(index)) of \(Int(count)) is given twice (also in '\(other)')")
            }
            shards[Int(index)] = path
            for (at, item) in list.enumerated() {
                guard let (order, result) = Self.result(item) else {
                    fail(JSONPath.root + "results" + at, "not a result of \(ResultsReporter.format)")
                    continue
                }
                placed.append((order, result))
            }
            if case .number(let ms)? = value["milliseconds"] { summary.milliseconds = max(summary.milliseconds, ms) }
            problems += reader.diagnostics()
        }
        if let suite, problems.isEmpty {
            let missing = (1...max(1, suite.count)).filter { shards[$0] == nil }
            if !missing.isEmpty {
                problems.append(
                    Diagnostic.whole(
                        file: paths.last ?? "",
                        message:
                            "shard\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(suite.count) missing: every shard's results are needed"
                    ))
            }
        }
        if !problems.isEmpty { throw DocumentError(problems) }
        placed.sort { $0.order < $1.order }
        for (_, result) in placed {
            switch result.status {
            case .passed, .skipped: summary.passed += 1
            case .failed: summary.failed += 1
            case .bad: summary.bad += 1
            }
        }
        return Merged(results: placed.map(\.result), summary: summary)
    }

    static func result(_ value: JSONValue) -> (Int, ScriptResult)? {
        guard case .number(let order)? = value["order"], case .string(let file)? = value["file"],
            case .string(let name)? = value["name"], case .string(let status)? = value["status"],
            case .number(let milliseconds)? = value["milliseconds"]
        else { return nil }
        let resultStatus: ScriptResult.Status
        switch status {
        case "passed": resultStatus = .passed
        case "failed":
            guard let failure = value["failure"], case .number(let step)? = failure["step"],
                case .string(let location)? = failure["location"], case .string(let stepJSON)? = failure["stepJSON"],
                case .array(let lines)? = failure["lines"], case .array(let recent)? = failure["recent"]
            else { return nil }
            let events = recent.compactMap { event -> RecentEvent? in
                guard case .number(let step)? = event["step"], case .string(let json)? = event["json"],
                    case .array(let notifications)? = event["notifications"]
                else { return nil }
                return RecentEvent(step: Int(step), json: json, notifications: notifications.compactMap(\.stringValue))
            }
            resultStatus = .failed(
                Failure(step: Int(step), location: location, stepJSON: stepJSON, lines: lines.compactMap(\.stringValue), recent: events))
        case "bad":
            guard case .array(let problems)? = value["problems"] else { return nil }
            resultStatus = .bad(problems.compactMap(diagnostic))
        default: return nil
        }
        var result = ScriptResult(file: file, name: name, status: resultStatus, milliseconds: milliseconds)
        result.id = TestID(classname: value["classname"]?.stringValue ?? "", name: value["testName"]?.stringValue ?? "")
        result.description = value["description"]?.stringValue
        if case .array(let steps)? = value["steps"] {
            result.steps = steps.compactMap { step in
                guard case .number(let index)? = step["index"], case .string(let json)? = step["json"],
                    case .number(let ms)? = step["milliseconds"]
                else { return nil }
                return StepRecord(index: Int(index), json: json, milliseconds: ms)
            }
        }
        return (Int(order), result)
    }

    static func diagnostic(_ value: JSONValue) -> Diagnostic? {
        guard case .string(let file)? = value["file"], case .number(let line)? = value["line"],
            case .number(let column)? = value["column"], case .array(let path)? = value["path"],
            case .string(let message)? = value["message"]
        else { return nil }
        let components: [JSONPath.Component] = path.compactMap { component in
            switch component {
            case .string(let key): .key(key)
            case .number(let index): .index(Int(index))
            default: nil
            }
        }
        return Diagnostic(
            file: file, position: SourcePosition(line: Int(line), column: Int(column)), path: JSONPath(components: components),
            message: message)
    }
}
