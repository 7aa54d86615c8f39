import ArgumentParser
import Foundation
import QuireCore

/// Exit codes (documented in the README): 0 success, 1 a script failed, 2 bad input or usage,
/// 3 no display (run), 4 built without GTK (run).
enum Exit {
    static let success: Int32 = 0
    static let failed: Int32 = 1
    static let badInput: Int32 = 2
    /// `quire run`: no display could be opened.
    static let noDisplay: Int32 = 3
    /// `quire run`: this build has no GTK support.
    static let noGTK: Int32 = 4
}

@main
struct Quire: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire",
        abstract: "Paged forms and input sessions: check flows, replay session scripts, run walkthroughs.",
        discussion: """
            Flows (quire.flow/1) describe a paged walkthrough or form; session scripts \
            (quire.session/1) replay input against one headlessly. See docs/ for both formats.

            Exit codes: 0 success; 1 a session script failed; 2 bad input (a broken flow or script, \
            a missing file) or a usage error; 3 (run) no display; 4 (run) built without GTK 4.
            """,
        version: "0.1.0",
        subcommands: [Check.self, Test.self, GenerateSessions.self, Run.self]
    )

    static func main() {
        if CommandLine.arguments.count == 1 {
            // No subcommand: say how to use it, as a usage error.
            FileHandle.standardError.write(Data((helpMessage() + "\n").utf8))
            Foundation.exit(Exit.badInput)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)
            }
            let message = fullMessage(for: error)
            if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            if let exit = error as? ExitCode { Foundation.exit(exit.rawValue) }
            // Usage errors (ArgumentParser's 64) are bad input too: one documented code.
            Foundation.exit(Exit.badInput)
        }
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate flow files and print every problem.",
        discussion: """
            Each problem is printed as file:line:column: $.json.path: message. \
            Exits 0 when every flow is valid, 2 when any is not.
            """)

    @Argument(help: "Flow files (quire.flow/1) to validate.")
    var flows: [String]

    @Flag(name: .shortAndLong, help: "Print nothing for valid flows.")
    var quiet = false

    func validate() throws {
        if flows.isEmpty { throw ValidationError("give at least one flow file") }
    }

    func run() throws {
        var bad = 0
        for path in flows {
            do {
                let flow = try Flow.load(contentsOf: path)
                if !quiet {
                    let pages = flow.pages.count == 1 ? "1 page" : "\(flow.pages.count) pages"
                    let fields = flow.fields.count == 1 ? "1 field" : "\(flow.fields.count) fields"
                    print("\(path): ok: flow '\(flow.id)', \(pages), \(fields)")
                }
            } catch {
                bad += 1
                for diagnostic in error.diagnostics { printError(diagnostic.description) }
            }
        }
        if bad > 0 {
            printError("\(bad) of \(flows.count) flow\(flows.count == 1 ? "" : "s") rejected")
            throw ExitCode(Exit.badInput)
        }
    }
}

func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
