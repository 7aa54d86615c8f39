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

            --format svg draws at most 500 pages and 5,000 fields (exit 2 beyond, at the first page \
            or field past them) and gives dot --dot-timeout seconds; dot is stopped when quire is \
            interrupted.

            Exit codes: 0 written; 2 bad input (a broken flow, an unreadable coverage file, a file \
            that could not be written, a flow too large for --format svg) or a usage error; 6 \
            (--format svg) Graphviz's dot program is not on PATH, failed or ran out of time; 130, \
            143, 129 interrupted by SIGINT, SIGTERM, SIGHUP while dot ran (dot stopped, nothing \
            written).
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

    @Option(help: ArgumentHelp("How long Graphviz's dot may lay out the map (--format svg).", valueName: "SECONDS"))
    var dotTimeout: Double = 60

    func validate() throws {
        guard dotTimeout > 0, dotTimeout <= 86_400 else {
            throw ValidationError("--dot-timeout must be more than 0 and at most 86400 seconds")
        }
    }

    func run() throws {
        let loaded: Flow
        do {
            loaded = try Flow.load(contentsOf: flow)
        } catch {
            for diagnostic in error.diagnostics { printError(diagnostic.description) }
            throw ExitCode(QuireExit.badInput)
        }
        var map = FlowMap(flow: loaded, locale: locale)
        if let coverageJson {
            let document: JSONValue
            do {
                let bytes = try Flow.readDocument(coverageJson)
                document = try DocumentReader.parse(file: coverageJson, bytes: bytes).0
            } catch {
                for diagnostic in error.diagnostics { printError(diagnostic.description) }
                throw ExitCode(QuireExit.badInput)
            }
            guard let coverage = FlowMap.Coverage.read(document, flowID: loaded.id, file: flow) else {
                printError(
                    Printable.line(
                        "quire map: \(coverageJson) has no coverage of the flow '\(loaded.id)' (\(flow)); write it with quire test --coverage-json"
                    ))
                throw ExitCode(QuireExit.badInput)
            }
            map.coverage = coverage
        }
        if format == .svg, let (path, message) = map.svgProblem() {
            // At the first page or field past the limit, as load errors are.
            var reader = DocumentReader(file: flow, bytes: (try? Flow.readDocument(flow)) ?? [])
            reader.error(path, message)
            for diagnostic in reader.diagnostics() { printError(diagnostic.description) }
            throw ExitCode(QuireExit.badInput)
        }
        let source = map.dot()
        var bytes = Array(source.utf8)
        if format == .svg {
            switch Graphviz.render(source, seconds: dotTimeout) {
            case .success(let svg): bytes = svg
            case .failure(let problem):
                printError("quire map: \(problem.message)")
                throw ExitCode(problem.signal.map { 128 + $0 } ?? QuireExit.noGraphviz)
            }
        }
        if let output {
            switch ReportFile.create(output, what: "the map") {
            case .success(let file):
                bytes.withUnsafeBytes { file.write(bytes: $0) }
                if let problem = file.commit() {
                    printError("quire map: \(problem)")
                    throw ExitCode(QuireExit.badInput)
                }
            case .failure(let error):
                printError("quire map: \(error)")
                throw ExitCode(QuireExit.badInput)
            }
        } else {
            FileHandle.standardOutput.write(Data(bytes))
        }
    }
}

/// Graphviz's `dot` program, found on PATH and run with the graph on its standard input, within
/// a time limit; stopped (SIGKILL) and reaped when the limit passes or quire is interrupted.
enum Graphviz {
    struct Problem: Error {
        var message: String
        /// The signal quire was interrupted by, when it was (the exit is 128 + it).
        var signal: Int32? = nil
    }

    static func program() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = String(folder) + "/dot"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// What ended dot early: a time limit or a signal to quire. Set once, under its lock, by
    /// the timer or a signal's handler, which then kill dot while it has not been waited for.
    final class Stop: @unchecked Sendable {
        private let lock = NSLock()
        private var reason: (timeout: Bool, signal: Int32?)? = nil
        private var running = true
        let pid: pid_t

        init(pid: pid_t) { self.pid = pid }

        func stop(timeout: Bool, signal: Int32?) {
            lock.lock()
            defer { lock.unlock() }
            guard running, reason == nil else { return }
            reason = (timeout, signal)
            kill(pid, SIGKILL)
        }

        /// After dot ended (waited for): nothing is killed any more, and why it ended early.
        func ended() -> (timeout: Bool, signal: Int32?)? {
            lock.lock()
            defer { lock.unlock() }
            running = false
            return reason
        }
    }

    static func render(_ source: String, seconds: Double) -> Result<[UInt8], Problem> {
        guard let dot = program() else {
            return .failure(
                Problem(
                    message:
                        "--format svg needs Graphviz's dot program, which is not on PATH (Debian: apt-get install graphviz); --format dot writes the graph without it"
                ))
        }
        // A dot that is stopped before it has read the whole graph must not kill quire with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        // SIGINT, SIGTERM and SIGHUP while dot runs stop it; quire then exits as interrupted
        // (SignalPipe: a thread waiting on the pipe stops dot).
        guard let ends = SignalPipe.install() else {
            return .failure(Problem(message: "cannot run \(dot): \(String(cString: strerror(errno)))"))
        }
        func restore() { SignalPipe.uninstall() }
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
            restore()
            return .failure(Problem(message: "cannot run \(dot): \(error.localizedDescription)"))
        }
        let stop = Stop(pid: process.processIdentifier)
        let readEnd = ends.read
        let watcher = Thread {
            var number: UInt8 = 0
            while true {
                let count = read(readEnd, &number, 1)
                if count < 0 && errno == EINTR { continue }
                // 0: dot ended (the byte `render` writes then).
                if count == 1 && number != 0 { stop.stop(timeout: false, signal: Int32(number)) }
                return
            }
        }
        watcher.start()
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { stop.stop(timeout: true, signal: nil) }
        // Write the graph and read dot's messages on threads of their own, so that no full pipe
        // can stall both sides.
        let writer = Thread {
            try? input.fileHandleForWriting.write(contentsOf: Data(source.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let said = Said()
        let reader = Thread {
            said.set(errors.fileHandleForReading.readDataToEndOfFile())
        }
        reader.start()
        let svg = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let early = stop.ended()
        restore()
        var done: UInt8 = 0
        _ = Glibc.write(ends.write, &done, 1)
        if let early {
            if let number = early.signal {
                return .failure(
                    Problem(
                        message: "interrupted by \(SignalPipe.name(of: number)); Graphviz's dot was stopped and nothing was written",
                        signal: number))
            }
            return .failure(
                Problem(
                    message:
                        "Graphviz's dot did not finish within \(JSONWriter.number(seconds)) s (--dot-timeout) and was stopped; --format dot writes the graph without it"
                ))
        }
        guard process.terminationStatus == 0, !svg.isEmpty else {
            let reason = Printable.line(String(decoding: said.get().prefix(2000), as: UTF8.self))
            return .failure(Problem(message: "Graphviz's dot failed (exit \(process.terminationStatus)): \(reason)"))
        }
        return .success(Array(svg))
    }

    /// What dot wrote to its standard error, read on a thread of its own.
    final class Said: @unchecked Sendable {
        private let lock = NSCondition()
        private var data: Data? = nil

        func set(_ value: Data) {
            lock.lock()
            data = value
            lock.broadcast()
            lock.unlock()
        }

        /// Waits for dot's standard error to end (it has, once dot was waited for).
        func get() -> Data {
            lock.lock()
            defer { lock.unlock() }
            while data == nil { lock.wait() }
            return data!
        }
    }
}
