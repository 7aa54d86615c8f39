import Dispatch
import Foundation
import QuireCore

/// Finds scripts, runs them in parallel, and hands results to reporters in a stable order.
public struct Suite {
    public struct Options: Sendable {
        public var jobs: Int
        /// 1-based shard K of N.
        public var shard: (index: Int, count: Int) = (1, 1)
        public var runner = Runner.Options()

        public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
            self.jobs = max(1, jobs)
        }
    }

    /// A file to try: named explicitly, or found in a folder given as `root`.
    public struct Candidate: Sendable, Hashable {
        public var path: String
        /// Index of the command-line path it came from.
        public var root: Int
        /// Named on the command line (it must be a script) rather than found in a folder.
        public var explicit: Bool
        /// Why the path cannot be run (it does not exist, is a link to nothing or a link loop, a
        /// folder that cannot be read or holds no `*.json` file): reported as bad input in the
        /// shard that runs it, while the rest still runs.
        public var problem: String? = nil
        /// Its identity in reports, from the path (see `TestID`).
        public var id = TestID()
    }

    /// Every candidate under `paths`, in a stable order: folders are walked recursively, links
    /// followed, in sorted order. A path that cannot be used is a candidate too, reported as bad
    /// input when run, so each is reported by exactly one shard.
    public static func discover(_ paths: [String]) -> [Candidate] {
        var candidates: [Candidate] = []
        for (root, path) in paths.enumerated() {
            let explicitID = TestID(classname: FileWalker.parentName(of: path), name: TestID.name(ofFile: FileWalker.name(of: path)))
            switch FileWalker.kind(of: path) {
            case .missing:
                candidates.append(Candidate(path: path, root: root, explicit: true, problem: "no such file or folder", id: explicitID))
            case .problem(let message):
                candidates.append(Candidate(path: path, root: root, explicit: true, problem: message, id: explicitID))
            case .file, .other:
                candidates.append(Candidate(path: path, root: root, explicit: true, id: explicitID))
            case .folder:
                let rootName = FileWalker.name(of: path)
                let entries = FileWalker.jsonFiles(in: path)
                if entries.isEmpty {
                    candidates.append(
                        Candidate(
                            path: path, root: root, explicit: false, problem: Suite.noScript,
                            id: TestID(classname: FileWalker.parentName(of: path), name: rootName)))
                }
                // Entries come folder by folder: each folder's class name is joined once.
                var folders: [String]? = nil
                var classname = ""
                for entry in entries {
                    if entry.folders != folders {
                        folders = entry.folders
                        classname = ([rootName] + entry.folders).filter { !$0.isEmpty }.joined(separator: ".")
                    }
                    let name = entry.path == path ? rootName : TestID.name(ofFile: FileWalker.lastComponent(of: entry.path))
                    candidates.append(
                        Candidate(
                            path: entry.path, root: root, explicit: false, problem: entry.problem,
                            id: TestID(classname: classname, name: name)))
                }
            }
        }
        return candidates
    }

    static let noScript = "no quire.session/1 script in this folder"

    /// The K-th of N deterministic parts (round robin over the stable order).
    public static func shard(_ candidates: [Candidate], index: Int, count: Int) -> [Candidate] {
        guard count > 1 else { return candidates }
        return candidates.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    public struct Outcome: Sendable {
        public var summary: Summary
        /// Command-line folders in which no script was found (each is counted as bad input).
        public var emptyRoots: [Int]
        /// With `options.runner.coverage`: each flow's coverage over every script that ran
        /// against it, by the flow's file.
        public var coverage: [FlowCoverage] = []
    }

    /// Runs this shard's part of `candidates` (all of them, as `discover` found them) on
    /// `options.jobs` threads; reporters see results in candidate order.
    public static func run(
        _ all: [Candidate], options: Options, reporters: [Reporter], traces: TraceWriter? = nil, roots: [String] = []
    ) -> Outcome {
        let started = ContinuousClock.now
        let (shardIndex, shardCount) = options.shard
        let candidates = shard(all, index: shardIndex, count: shardCount)
        let collector = Collector(reporters: reporters, candidates: candidates)
        for reporter in reporters { reporter.begin(candidates: candidates.count) }
        let workers = min(options.jobs, max(1, candidates.count))
        // Scripts are handed out in chunks, enough of them for a slow job to be made up for by
        // the others, and their results delivered a chunk at a time: one lock a chunk.
        let chunk = max(1, min(64, candidates.count / (workers * 16)))
        // One set of empty coverages for the whole run: it holds every job to the first reading
        // of each flow file (`CoverageTemplates`).
        var shared = options.runner
        if shared.coverage && shared.coverageTemplates == nil { shared.coverageTemplates = CoverageTemplates() }
        let runnerOptions = shared
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            // Each job reads its own flows: the sessions of one job never touch another's
            // reference counts. Its coverage is merged on its own, then once into the collector.
            let flows = FlowCache()
            var covered: [String: FlowCoverage] = [:]
            var results: [ScriptResult] = []
            results.reserveCapacity(chunk)
            while let taken = collector.take(chunk) {
                for index in taken {
                    var result = runCandidate(candidates[index], flows: flows, options: runnerOptions)
                    traces?.write(result)
                    result.trace = nil
                    if let coverage = result.coverage {
                        result.coverage = nil
                        if covered[coverage.file] == nil {
                            covered[coverage.file] = coverage
                        } else {
                            covered[coverage.file]!.merge(coverage)
                        }
                    }
                    results.append(result)
                }
                collector.deliver(taken.lowerBound, results)
                results.removeAll(keepingCapacity: true)
            }
            if !covered.isEmpty { collector.merge(covered) }
        }
        // A folder given on the command line in which no file is a script is bad input. Its
        // files may be spread over shards: the shard holding its first file decides, reading the
        // others' files if none of its own was a script, so the folder is reported once.
        var emptyRoots: [Int] = []
        let reported = collector.rootsWithScripts
        let flows = FlowCache()
        var filesOfRoot: [Int: [Int]] = [:]
        for (index, candidate) in all.enumerated()
        where !candidate.explicit && candidate.root < roots.count && candidate.path != roots[candidate.root] {
            filesOfRoot[candidate.root, default: []].append(index)
        }
        for root in roots.indices {
            guard let files = filesOfRoot[root], let first = files.first, first % max(1, shardCount) == shardIndex - 1,
                !reported.contains(root)
            else { continue }
            let elsewhere = files.filter { $0 % max(1, shardCount) != shardIndex - 1 }
            let scriptElsewhere = elsewhere.contains { index in
                if case .notAScript = ScriptLoader.load(all[index].path, flows: flows) { return false }
                return true
            }
            if !scriptElsewhere { emptyRoots.append(root) }
        }
        for root in emptyRoots {
            var result = ScriptResult(
                file: roots[root], name: roots[root], status: .bad([Diagnostic.whole(file: roots[root], message: noScript)]),
                milliseconds: 0)
            result.id = TestID(classname: FileWalker.parentName(of: roots[root]), name: FileWalker.name(of: roots[root]))
            traces?.write(result)
            collector.deliverLast(result)
        }
        traces?.finish(collector.summary)
        var summary = collector.summary
        summary.milliseconds = (ContinuousClock.now - started).milliseconds
        for reporter in reporters { reporter.finish(summary) }
        return Outcome(summary: summary, emptyRoots: emptyRoots, coverage: collector.coverage)
    }

    static func runCandidate(_ candidate: Candidate, flows: FlowCache, options: Runner.Options) -> ScriptResult {
        var result: ScriptResult
        if let problem = candidate.problem {
            result = ScriptResult(
                file: candidate.path, name: candidate.path,
                status: .bad([Diagnostic.whole(file: candidate.path, message: problem)]), milliseconds: 0)
        } else {
            switch ScriptLoader.load(candidate.path, flows: flows, explicitly: candidate.explicit) {
            case .script(let script) where options.update:
                result = Update.run(script, path: candidate.path, explicit: candidate.explicit, flows: flows, options: options)
            case .script(let script):
                result = options.repeatEach > 1 ? Repeat.run(script, options: options) : Runner.run(script, options: options, flows: flows)
            case .bad(let diagnostics):
                result = ScriptResult(file: candidate.path, name: candidate.path, status: .bad(diagnostics), milliseconds: 0)
            case .notAScript:
                result = ScriptResult(file: candidate.path, name: candidate.path, status: .skipped, milliseconds: 0)
            }
        }
        result.id = candidate.id
        return result
    }
}

/// A script's identity in reports — JUnit's `classname` and `name` — taken from its path, so it
/// is the same whether the script passes, fails or is bad input: the folders from the one named
/// on the command line down, joined with dots (`sessions.paging`), and the file's name without
/// `.json`. Paths are normalized first: `./data/sessions` and `data/sessions/` give the same ids.
public struct TestID: Sendable, Hashable {
    public var classname = ""
    public var name = ""

    public init(classname: String = "", name: String = "") {
        self.classname = classname
        self.name = name
    }

    static func name(ofFile file: String) -> String {
        file.hasSuffix(".json") && file.count > 5 ? String(file.dropLast(5)) : file
    }
}

/// Hands out work and delivers results to reporters in order, under one lock.
final class Collector: @unchecked Sendable {
    private struct State {
        var next = 0
        var nextToReport = 0
        /// Delivered chunks not reported yet, by their first index.
        var pending: [Int: [ScriptResult]] = [:]
        var summary = Summary()
        var rootsWithScripts = Set<Int>()
        var coverage: [String: FlowCoverage] = [:]
    }

    private let state = Locked(State())
    private let reporters: [Reporter]
    private let candidates: [Suite.Candidate]

    init(reporters: [Reporter], candidates: [Suite.Candidate]) {
        self.reporters = reporters
        self.candidates = candidates
    }

    /// The next `count` candidates (fewer at the end), or nil when all are taken.
    func take(_ count: Int) -> Range<Int>? {
        state.withLock { state in
            guard state.next < candidates.count else { return nil }
            let taken = state.next..<min(candidates.count, state.next + count)
            state.next = taken.upperBound
            return taken
        }
    }

    /// The results of the candidates from `first` on; reporters see every result in order.
    func deliver(_ first: Int, _ results: [ScriptResult]) {
        state.withLock { state in
            state.pending[first] = results
            while let ready = state.pending.removeValue(forKey: state.nextToReport) {
                for result in ready {
                    switch result.status {
                    case .passed: state.summary.passed += 1
                    case .failed: state.summary.failed += 1
                    case .bad: state.summary.bad += 1
                    case .skipped: break
                    }
                    if case .skipped = result.status {} else { state.rootsWithScripts.insert(candidates[state.nextToReport].root) }
                    for reporter in reporters { reporter.report(result) }
                    state.nextToReport += 1
                }
            }
        }
    }

    /// Reports one more result after every candidate's (a folder with no script).
    func deliverLast(_ result: ScriptResult) {
        state.withLock { state in
            if case .bad = result.status { state.summary.bad += 1 }
            for reporter in reporters { reporter.report(result) }
        }
    }

    var summary: Summary { state.withLock { $0.summary } }
    var rootsWithScripts: Set<Int> { state.withLock { $0.rootsWithScripts } }
    /// Adds one job's coverage (by normalized flow file): counters add, in any order.
    func merge(_ coverage: [String: FlowCoverage]) {
        state.withLock { state in
            for (file, part) in coverage {
                if state.coverage[file] == nil {
                    state.coverage[file] = part
                } else {
                    state.coverage[file]!.merge(part)
                }
            }
        }
    }

    var coverage: [FlowCoverage] { state.withLock { state in state.coverage.keys.sorted().map { state.coverage[$0]! } } }
}
