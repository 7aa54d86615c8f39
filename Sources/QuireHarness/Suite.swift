import Dispatch
import Foundation
import QuireCore
@_exported import Synchronization

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
        /// Named on the command line but not there: reported as bad input, the rest still runs.
        public var missing = false
    }

    /// Every candidate under `paths`, in a stable order: folders are walked recursively in sorted
    /// order. A path that does not exist is a candidate too, reported as bad input when run.
    public static func discover(_ paths: [String]) -> [Candidate] {
        var candidates: [Candidate] = []
        let manager = FileManager.default
        for (root, path) in paths.enumerated() {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                candidates.append(Candidate(path: path, root: root, explicit: true, missing: true))
                continue
            }
            if !isDirectory.boolValue {
                candidates.append(Candidate(path: path, root: root, explicit: true))
                continue
            }
            var found: [String] = []
            if let walker = manager.enumerator(atPath: path) {
                while let relative = walker.nextObject() as? String {
                    guard relative.hasSuffix(".json") else { continue }
                    let full = path.hasSuffix("/") ? path + relative : path + "/" + relative
                    var childIsDirectory: ObjCBool = false
                    if manager.fileExists(atPath: full, isDirectory: &childIsDirectory), !childIsDirectory.boolValue {
                        found.append(full)
                    }
                }
            }
            for file in found.sorted() { candidates.append(Candidate(path: file, root: root, explicit: false)) }
        }
        return candidates
    }

    /// The K-th of N deterministic parts (round robin over the stable order).
    public static func shard(_ candidates: [Candidate], index: Int, count: Int) -> [Candidate] {
        guard count > 1 else { return candidates }
        return candidates.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    public struct Outcome: Sendable {
        public var summary: Summary
        /// Command-line folders in which no script was found (each is counted as bad input).
        public var emptyRoots: [Int]
    }

    /// Runs candidates on `options.jobs` threads; reporters see results in candidate order.
    public static func run(
        _ candidates: [Candidate], options: Options, reporters: [Reporter], traces: TraceWriter? = nil, roots: [String] = []
    ) -> Outcome {
        let started = ContinuousClock.now
        let flows = FlowCache()
        let collector = Collector(reporters: reporters, candidates: candidates)
        for reporter in reporters { reporter.begin(candidates: candidates.count) }
        let workers = min(options.jobs, max(1, candidates.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = collector.take() {
                let candidate = candidates[index]
                let result = runCandidate(candidate, flows: flows, options: options.runner)
                traces?.write(result)
                var delivered = result
                delivered.trace = nil
                collector.deliver(index, delivered)
            }
        }
        // A folder given on the command line with no script in it is bad input, reported with the rest.
        let folders = Set(candidates.filter { !$0.explicit }.map(\.root))
        let emptyRoots = roots.indices.filter { root in
            var isDirectory: ObjCBool = false
            let isFolder = FileManager.default.fileExists(atPath: roots[root], isDirectory: &isDirectory) && isDirectory.boolValue
            return isFolder && (!folders.contains(root) || !collector.rootsWithScripts.contains(root))
        }
        for root in emptyRoots {
            let result = ScriptResult(
                file: roots[root], name: roots[root],
                status: .bad([Diagnostic.whole(file: roots[root], message: "no quire.session/1 script in this folder")]),
                milliseconds: 0)
            traces?.write(result)
            collector.deliverLast(result)
        }
        traces?.finish()
        var summary = collector.summary
        summary.milliseconds = (ContinuousClock.now - started).milliseconds
        for reporter in reporters { reporter.finish(summary) }
        return Outcome(summary: summary, emptyRoots: emptyRoots)
    }

    static func runCandidate(_ candidate: Candidate, flows: FlowCache, options: Runner.Options) -> ScriptResult {
        if candidate.missing {
            return ScriptResult(
                file: candidate.path, name: candidate.path,
                status: .bad([Diagnostic.whole(file: candidate.path, message: "no such file or folder")]), milliseconds: 0)
        }
        switch ScriptLoader.load(candidate.path, flows: flows, explicitly: candidate.explicit) {
        case .script(let script):
            return Runner.run(script, options: options)
        case .bad(let diagnostics):
            return ScriptResult(file: candidate.path, name: candidate.path, status: .bad(diagnostics), milliseconds: 0)
        case .notAScript:
            return ScriptResult(file: candidate.path, name: candidate.path, status: .skipped, milliseconds: 0)
        }
    }
}

/// Hands out work and delivers results to reporters in order, under one lock.
final class Collector: @unchecked Sendable {
    private struct State {
        var next = 0
        var nextToReport = 0
        var pending: [Int: ScriptResult] = [:]
        var summary = Summary()
        var rootsWithScripts = Set<Int>()
    }

    private let state = Mutex(State())
    private let reporters: [Reporter]
    private let candidates: [Suite.Candidate]

    init(reporters: [Reporter], candidates: [Suite.Candidate]) {
        self.reporters = reporters
        self.candidates = candidates
    }

    func take() -> Int? {
        state.withLock { state in
            guard state.next < candidates.count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    func deliver(_ index: Int, _ result: ScriptResult) {
        state.withLock { state in
            state.pending[index] = result
            while let ready = state.pending.removeValue(forKey: state.nextToReport) {
                switch ready.status {
                case .passed: state.summary.passed += 1
                case .failed: state.summary.failed += 1
                case .bad: state.summary.bad += 1
                case .skipped: break
                }
                if case .skipped = ready.status {} else { state.rootsWithScripts.insert(candidates[state.nextToReport].root) }
                for reporter in reporters { reporter.report(ready) }
                state.nextToReport += 1
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
}
