import ArgumentParser
import Foundation
import QuireCore
import QuireHarness

struct Map: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a flow: its pages, fields, conditions, the gate and what the lint found.",
        discussion: """
            Writes the flow as a Graphviz graph (--format dot) or as SVG rendered by Graphviz's \
            dot program (--format svg; Debian: apt-get install graphviz), to standard output or \
            to -o FILE (written whole or not at all). Pages that can never be shown are red. With \
            --coverage-json (from quire test --coverage-json), pages, fields and condition \
            outcomes a suite covered are green, the rest grey. See docs/flow-map.md.

            Exit codes: 0 written; 2 bad input (a broken flow, an unreadable coverage file, a file \
            that could not be written) or a usage error; 6 (--format svg) Graphviz's dot program \
            is not on PATH, or it failed.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case dot, svg
    }

    @Argument(help: "The flow file (quire.flow/1).")
    var flow: String

    @Option(help: "dot (Graphviz source) or svg (rendered by Graphviz's dot).")
    var format: Format = .dot

    @Option(name: .short, help: ArgumentHelp("Write to FILE instead of standard output.", valueName: "FILE"))
    var output: String?

    @Option(help: ArgumentHelp("Colour what a suite covered, from quire test --coverage-json FILE.", valueName: "FILE"))
    var coverageJson: String?

    @Option(help: "The language of the texts shown (a BCP 47 tag).")
    var locale = "en"

    func run() throws {
        let loaded: Flow
        do {
            loaded = try Flow.load(contentsOf: flow)
        } catch {
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            throw ExitCode(Exit.badInput)
        }
        var map = FlowMap(flow: loaded, locale: locale)
        if let coverageJson {
            let document: JSONValue
            do {
                let bytes = try Flow.readDocument(coverageJson)
                document = try DocumentReader.parse(file: coverageJson, bytes: bytes).0
            } catch {
                for diagnostic in error.diagnostics { printError(diagnostic.description) }
                throw ExitCode(Exit.badInput)
            }
            guard let coverage = FlowMap.Coverage.read(document, flowID: loaded.id, file: flow) else {
                printError(
                    Printable.line(
                        "quire map: \(coverageJson) has no coverage of the flow '\(loaded.id)' (\(flow)); write it with quire test --coverage-json"
                    ))
                throw ExitCode(Exit.badInput)
            }
            map.coverage = coverage
        }
        let source = map.dot()
        var bytes = Array(source.utf8)
        if format == .svg {
            switch Graphviz.render(source) {
            case .success(let svg): bytes = svg
            case .failure(let problem):
                printError("quire map: \(problem.message)")
                throw ExitCode(Exit.noGraphviz)
            }
        }
        if let output {
            switch ReportFile.create(output, what: "the map") {
            case .success(let file):
                bytes.withUnsafeBytes { file.write(bytes: $0) }
                if let problem = file.commit() {
                    printError("quire map: \(problem)")
                    throw ExitCode(Exit.badInput)
                }
            case .failure(let error):
                printError("quire map: \(error)")
                throw ExitCode(Exit.badInput)
            }
        } else {
            FileHandle.standardOutput.write(Data(bytes))
        }
    }
}

/// Graphviz's `dot` program, found on PATH and run with the graph on its standard input.
enum Graphviz {
    struct Problem: Error {
        var message: String
    }

    static func program() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = String(folder) + "/dot"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static func render(_ source: String) -> Result<[UInt8], Problem> {
        guard let dot = program() else {
            return .failure(
                Problem(
                    message:
                        "--format svg needs Graphviz's dot program, which is not on PATH (Debian: apt-get install graphviz); --format dot writes the graph without it"
                ))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: dot)
        process.arguments = ["-Tsvg"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return .failure(Problem(message: "cannot run \(dot): \(error.localizedDescription)"))
        }
        // Write the graph on its own thread, so a full output pipe cannot stall both sides.
        let writer = Thread {
            input.fileHandleForWriting.write(Data(source.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let svg = output.fileHandleForReading.readDataToEndOfFile()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, !svg.isEmpty else {
            let reason = Printable.line(String(decoding: said.prefix(2000), as: UTF8.self))
            return .failure(Problem(message: "Graphviz's dot failed (exit \(process.terminationStatus)): \(reason)"))
        }
        return .success(Array(svg))
    }
}
