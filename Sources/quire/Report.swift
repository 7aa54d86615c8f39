import ArgumentParser
import Foundation
import QuireCore
import QuireHarness

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Work with the results of shards (quire test --results).",
        subcommands: [Merge.self]
    )

    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Merge shards' results (quire test --shard K/N --results FILE) into the reports one run writes.",
            discussion: """
                Reads one quire.results/1 file per shard (every shard of the run, each once), \
                puts the results back in the order of the whole suite and writes the JUnit and TAP \
                reports an unsharded quire test writes, the same but for times. Prints the totals \
                line "N passed, N failed" and exits as quire test would have: 0, 1 when a script \
                failed, 2 when one was bad input, or when a results file is broken, of another \
                run, given twice, or a shard is missing (docs/sharding.md).
                """
        )

        @Argument(help: ArgumentHelp("quire.results/1 files, one a shard.", valueName: "FILE"))
        var files: [String] = []

        @Option(help: ArgumentHelp("Write the merged JUnit XML report to FILE ('-': standard output).", valueName: "FILE"))
        var junit: String?

        @Option(help: ArgumentHelp("Write the merged TAP 13 report to FILE ('-': standard output).", valueName: "FILE"))
        var tap: String?

        func validate() throws {
            if files.isEmpty { throw ValidationError("give the shards' results, e.g. quire report merge r1.json r2.json r3.json") }
            if junit == "-" && tap == "-" {
                throw ValidationError("only one report can go to standard output: give --junit or --tap a file")
            }
        }

        func run() throws {
            let merged: ResultsMerge.Merged
            do {
                merged = try ResultsMerge.merge(files)
            } catch {
                for diagnostic in error.diagnostics { printError(diagnostic.description) }
                throw ExitCode(QuireExit.badInput)
            }
            let reports = ReportFiles(command: "quire report merge")
            var reporters: [Reporter] = []
            if let tap { reporters.append(TAPReporter(sink: try reports.open(tap, "the TAP report"))) }
            if let junit { reporters.append(try reports.junit(junit)) }
            for reporter in reporters { reporter.begin(candidates: merged.results.count) }
            for result in merged.results { for reporter in reporters { reporter.report(result) } }
            for reporter in reporters { reporter.finish(merged.summary) }
            let problems = reports.commit()
            let console = junit == "-" || tap == "-" ? FileSink.standardError() : FileSink.standardOutput()
            console.write(merged.summary.line + "\n")
            console.flush()
            if !problems.isEmpty {
                for problem in problems { printError("quire report merge: \(problem)") }
                throw ExitCode(QuireExit.badInput)
            }
            if merged.summary.bad > 0 { throw ExitCode(QuireExit.badInput) }
            if merged.summary.failed > 0 { throw ExitCode(QuireExit.failed) }
        }
    }
}
