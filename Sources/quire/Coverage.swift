import ArgumentParser
import Foundation
import QuireCore
import QuireHarness

struct CoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Work with flow coverage files (quire test --coverage-json).",
        subcommands: [Merge.self]
    )

    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add up the coverage of shards (quire test --shard K/N --coverage-json) into one.",
            discussion: """
                Reads quire.coverage/1 files, adds their counters up per flow file and prints the \
                summary quire test --coverage prints; --coverage-json and --coverage-lcov write \
                the merged coverage as quire test writes it, so merging the shards of a suite gives \
                the bytes one unsharded run gives. Each flow file is read once, by the path the \
                coverage files name as quire test names it (relative to where quire test ran: \
                merge from the same folder); an entry that does not match its flow file as it is \
                now, or names no readable flow file, is bad input, refused at its position without \
                quoting the file; counts add up to 2^53 at most (docs/coverage.md).
                """
        )

        @Argument(help: ArgumentHelp("quire.coverage/1 files, one a shard.", valueName: "FILE"))
        var files: [String] = []

        @Option(help: ArgumentHelp("Write the merged coverage as JSON (quire.coverage/1) to FILE.", valueName: "FILE"))
        var coverageJson: String?

        @Option(help: ArgumentHelp("Write the merged coverage as an lcov tracefile over the flow files' lines to FILE.", valueName: "FILE"))
        var coverageLcov: String?

        func validate() throws {
            if files.isEmpty { throw ValidationError("give at least one coverage file, e.g. quire coverage merge shard1.json shard2.json") }
            if coverageJson == "-" && coverageLcov == "-" {
                throw ValidationError("only one report can go to standard output: give --coverage-json or --coverage-lcov a file")
            }
        }

        func run() throws {
            let merged: [FlowCoverage]
            do {
                merged = try CoverageReport.merge(files)
            } catch {
                for diagnostic in error.diagnostics { printError(diagnostic.description) }
                throw ExitCode(QuireExit.badInput)
            }
            var reports: [(ReportFile, String)] = []
            func add(_ path: String?, _ what: String, _ text: @autoclosure () -> String) throws {
                guard let path else { return }
                switch ReportFile.create(path, what: what) {
                case .success(let file):
                    reports.append((file, text()))
                case .failure(let error):
                    for (file, _) in reports { file.discard() }
                    printError("quire coverage merge: \(error)")
                    throw ExitCode(QuireExit.badInput)
                }
            }
            try add(coverageJson, "the coverage JSON", JSONWriter.string(CoverageReport.json(merged), style: .pretty) + "\n")
            try add(coverageLcov, "the lcov coverage", CoverageReport.lcov(merged))
            let toStdout = coverageJson == "-" || coverageLcov == "-"
            let console = toStdout ? FileSink.standardError() : FileSink.standardOutput()
            let lines = CoverageReport.console(merged)
            console.write(lines.isEmpty ? "coverage: no flow file in these files\n" : lines.joined(separator: "\n") + "\n")
            console.flush()
            var problems: [ReportError] = []
            for (file, text) in reports {
                file.write(text)
                if let problem = file.commit() { problems.append(problem) }
            }
            if let problem = console.problem {
                problems.append(
                    ReportError(what: "the console report", path: toStdout ? "standard error" : "standard output", reason: problem))
            }
            if coverageLcov != nil {
                for line in CoverageReport.lcovLeftOut(merged) { printError("quire coverage merge: \(line)") }
            }
            for problem in problems { printError("quire coverage merge: \(problem)") }
            if !problems.isEmpty { throw ExitCode(QuireExit.badInput) }
        }
    }
}
