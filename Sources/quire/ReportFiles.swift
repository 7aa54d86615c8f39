import ArgumentParser
import QuireHarness

/// The report files one command writes (`quire test`, `quire report merge`), opened before any
/// work, so a report that cannot be written at all (no such folder, no permission, a read-only
/// file system) stops the run at once; when one cannot be opened, those opened before it are
/// discarded, and nothing half-written is left.
final class ReportFiles {
    /// The command, as its messages name it (`quire test`).
    let command: String
    private(set) var files: [ReportFile] = []

    init(command: String) {
        self.command = command
    }

    /// Opens `path` for `what` (`the TAP report`).
    func open(_ path: String, _ what: String) throws -> ReportFile {
        switch ReportFile.create(path, what: what) {
        case .success(let file):
            files.append(file)
            return file
        case .failure(let error):
            throw fail("\(error)")
        }
    }

    /// The JUnit reporter writing to `path`.
    func junit(_ path: String) throws -> JUnitReporter {
        do {
            return try JUnitReporter(out: try open(path, "the JUnit report"))
        } catch let error as ReportError {
            throw fail("\(error)")
        }
    }

    /// Discards every file opened, says `message`, and gives the bad-input exit to throw.
    func fail(_ message: String) -> ExitCode {
        discardAll()
        printError("\(command): \(message)")
        return ExitCode(QuireExit.badInput)
    }

    func discardAll() {
        for file in files { file.discard() }
    }

    /// Puts every report in place; what could not be.
    func commit() -> [ReportError] {
        files.compactMap { $0.commit() }
    }
}
