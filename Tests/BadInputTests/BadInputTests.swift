import CQuire
import Foundation
import QuireCore
import Testing

@testable import QuireEmbed
import QuireTestSupport

/// The bad-input corpus, run against the real `quire` binary and the C API: every case gives
/// exactly its expected messages and exit code (or error codes), and none crashes or hangs.
/// `QUIRE_UPDATE_BAD_INPUTS=1 swift test --filter BadInputTests` rewrites the expected output of
/// every case from what it gives now (then read the diff: each message must say where and why).
@Suite struct BadInputTests {
    /// The `quire` binary built beside the test bundle.
    static let binary: URL = {
        let besideTests = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("quire")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return BadInputCase.corpus.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/quire")
    }()

    /// A scratch copy of the corpus, made once per run (cases write their generated inputs there).
    static let scratch: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-bad-inputs-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.copyItem(at: BadInputCase.corpus, to: folder)
        return folder
    }()

    static let updating = ProcessInfo.processInfo.environment["QUIRE_UPDATE_BAD_INPUTS"] == "1"

    /// The longest any case may take (a hang is a failure, not a stuck suite): generous, for
    /// two cores shared with other builds.
    static let timeout: Duration = .seconds(300)

    /// The sanitizer runs leave out the cases marked `slow:` (scripts/sanitize sets this).
    static let skipSlow = ProcessInfo.processInfo.environment["QUIRE_BAD_INPUTS_SKIP_SLOW"] == "1"

    @Test func theCorpusHasAtLeastEightyCasesCoveringFlowsScriptsAndTheCAPI() {
        let cases = BadInputCase.all
        #expect(cases.count >= 80, "\(cases.count) cases")
        #expect(cases.filter { $0.run.first == "quire" && $0.run.dropFirst().first == "check" }.count >= 20)
        #expect(cases.filter { $0.run.first == "quire" && $0.run.dropFirst().first == "test" }.count >= 20)
        #expect(cases.filter(\.isCAPI).count >= 20)
        for testCase in cases {
            #expect(!testCase.about.isEmpty, "\(testCase.name): no '#' line saying what it is about")
            #expect(testCase.run.first == "quire" || testCase.isCAPI, "\(testCase.name): 'run: quire …' or 'run: capi'")
            if testCase.isCAPI {
                #expect(testCase.blocks["calls"] != nil && testCase.blocks["transcript"] != nil, "\(testCase.name)")
            } else {
                #expect(testCase.exit != nil, "\(testCase.name): no 'exit:' line")
            }
        }
    }

    @Test(arguments: BadInputCase.all)
    func theCaseGivesExactlyItsMessagesAndExitCode(_ testCase: BadInputCase) throws {
        if Self.skipSlow && testCase.slow != nil { return }
        let folder = Self.scratch.appendingPathComponent(testCase.name)
        defer { try? FileManager.default.removeItem(at: folder) }
        try CaseMaker.prepare(testCase, in: folder)
        if testCase.isCAPI {
            let transcript = try CAPIScript.run(testCase.blocks["calls"] ?? [], in: folder)
            if Self.updating {
                try Data(testCase.rewritten(exit: nil, outputs: [("transcript", transcript)]).utf8)
                    .write(to: testCase.folder.appendingPathComponent("case"))
                return
            }
            #expect(transcript == testCase.blocks["transcript"] ?? [], "\(testCase.name)")
            return
        }
        let run = try Self.quire(Array(testCase.run.dropFirst()), in: folder)
        if Self.updating {
            var outputs: [(String, [String])] = []
            if !run.stdout.isEmpty { outputs.append(("stdout", run.stdout)) }
            if !run.stderr.isEmpty { outputs.append(("stderr", run.stderr)) }
            try Data(testCase.rewritten(exit: run.status, outputs: outputs).utf8).write(to: testCase.folder.appendingPathComponent("case"))
            return
        }
        #expect(run.status == testCase.exit, "\(testCase.name): exit status")
        #expect(run.stdout == testCase.blocks["stdout"] ?? [], "\(testCase.name): standard output")
        #expect(run.stderr == testCase.blocks["stderr"] ?? [], "\(testCase.name): standard error")
    }

    struct Run {
        var status: Int32
        var stdout: [String]
        var stderr: [String]
    }

    /// Runs `quire ARGUMENTS` in `folder`, with a time limit; output split into lines.
    static func quire(_ arguments: [String], in folder: URL) throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "80"
        let run = try runProcess(
            binary, arguments, in: folder, environment: environment, timeout: TimeInterval(timeout.components.seconds))
        if run.timedOut { throw CaseError("quire \(arguments.joined(separator: " ")) did not finish in \(timeout)") }
        return Run(status: run.status, stdout: lines(Data(run.stdout.utf8)), stderr: lines(Data(run.stderr.utf8)))
    }

    /// The output's lines, with the scratch copy's folder written `$CORPUS` (a path outside the
    /// case's folder is printed whole).
    static func lines(_ data: Data) -> [String] {
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: scratch.path, with: "$CORPUS")
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
