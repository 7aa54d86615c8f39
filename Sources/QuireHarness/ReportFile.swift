import Foundation
import QuireCore

#if canImport(Glibc)
    import Glibc
#endif

/// Why a report could not be written: the report, where it was going, and the system's reason.
public struct ReportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the report is, for the message: "the JUnit report", "the trace".
    public var what: String
    public var path: String
    public var reason: String

    public init(what: String, path: String, reason: String) {
        self.what = what
        self.path = path
        self.reason = reason
    }

    /// `cannot write the JUnit report to 'out/junit.xml': No space left on device`, on one line.
    public var description: String {
        Printable.line("cannot write \(what) to '\(path)': \(reason)")
    }

    /// The system's words for `errno`, as `strerror` says them.
    static func reason(errno code: Int32) -> String { String(cString: strerror(code)) }
}

/// A report file that is complete or absent: written to a temporary file beside its target
/// (`.NAME.quire-XXXXXX` in the same folder, so the rename cannot cross file systems), checked
/// after every write, flushed to the disk and renamed into place only by `commit()` when every
/// byte was written. A write error (no space, a file-size limit, an I/O error) is kept, the
/// temporary file is removed, and `commit()` returns it; an interrupted run removes the
/// temporary file (`Interruption`). Nothing is ever left half written at the target's path.
///
/// Standard output (`-`) and a target that exists and is not a regular file (a character device
/// such as `/dev/full` or `/dev/stdout`, a named pipe) cannot be renamed over: they are written in
/// place, with the same checks on every write.
public final class ReportFile: OutputSink, @unchecked Sendable {
    public let path: String
    public let what: String
    let descriptor: Int32
    let owned: Bool
    /// The temporary file renamed over `path` at the end; nil when written in place.
    let temporary: String?
    /// A folder for scratch files that belong with this report (the JUnit body).
    public let scratchFolder: String
    private var buffer: [UInt8] = []
    /// The first write error (the system's words); nothing is written after one.
    public private(set) var problem: String?
    private var done = false

    private init(path: String, what: String, descriptor: Int32, owned: Bool, temporary: String?, scratchFolder: String) {
        self.path = path
        self.what = what
        self.descriptor = descriptor
        self.owned = owned
        self.temporary = temporary
        self.scratchFolder = scratchFolder
        buffer.reserveCapacity(1 << 16)
    }

    /// Whether `create` writes `path` in place rather than through a temporary file: standard
    /// output, and an existing device or named pipe (a folder is refused).
    public static func writesInPlace(_ path: String) -> Bool {
        if path == "-" { return true }
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFREG && info.st_mode & S_IFMT != S_IFDIR
    }

    /// Opens a report for writing: `-` is standard output; an existing device or named pipe is
    /// written in place; anything else gets a temporary file in the target's folder. Fails, with
    /// the reason, when that file cannot be created (no such folder, no permission, a read-only
    /// file system, a full disk), or the target is a folder.
    public static func create(_ path: String, what: String) -> Result<ReportFile, ReportError> {
        let fail = { (reason: String) in Result<ReportFile, ReportError>.failure(ReportError(what: what, path: path, reason: reason)) }
        if path == "-" {
            return .success(
                ReportFile(path: path, what: what, descriptor: 1, owned: false, temporary: nil, scratchFolder: NSTemporaryDirectory()))
        }
        if path.isEmpty { return fail("the path is empty") }
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            if info.st_mode & S_IFMT == S_IFDIR { return fail("it is a directory") }
            // Not waiting for a reader: a named pipe nobody reads is an error, not a hang.
            let descriptor = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else {
                let code = errno
                return fail(code == ENXIO ? "it is a named pipe that nobody reads" : ReportError.reason(errno: code))
            }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            return .success(
                ReportFile(
                    path: path, what: what, descriptor: descriptor, owned: true, temporary: nil, scratchFolder: NSTemporaryDirectory()))
        }
        let folder = Flow.folder(ofFile: path)
        let name = FileWalker.lastComponent(of: path)
        let stem = name.utf8.count <= 200 ? "." + name + ".quire-" : ".quire-report-"
        let (descriptor, temporary) = TemporaryFiles.create(in: folder, prefix: stem)
        guard descriptor >= 0, let temporary else {
            let code = errno
            return fail("cannot create a file in '\(folder)': \(ReportError.reason(errno: code))")
        }
        // mkstemp makes the file 0600; a report is as readable as any file the user creates.
        let mask = umask(0o022)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        return .success(
            ReportFile(path: path, what: what, descriptor: descriptor, owned: true, temporary: temporary, scratchFolder: folder))
    }

    public func write(_ text: String) {
        guard problem == nil else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func write(bytes: UnsafeRawBufferPointer) {
        flush()
        guard problem == nil else { return }
        writeAll(bytes)
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        if problem == nil { buffer.withUnsafeBytes { writeAll($0) } }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Marks the report as failed (a part of it, written elsewhere, could not be).
    public func fail(_ reason: String) {
        if problem == nil { problem = reason }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                problem = ReportError.reason(errno: errno)
                return
            }
            offset += written
        }
    }

    /// Finishes the report: flushes it, waits for the disk and renames the temporary file into
    /// place. On any error the temporary file is removed, the target is left as it was, and the
    /// error is returned.
    @discardableResult
    public func commit() -> ReportError? {
        guard !done else { return problem.map { ReportError(what: what, path: path, reason: $0) } }
        done = true
        flush()
        if let temporary {
            if problem == nil, fsync(descriptor) != 0 { problem = ReportError.reason(errno: errno) }
            if close(descriptor) != 0, problem == nil { problem = ReportError.reason(errno: errno) }
            if problem == nil, rename(temporary, path) != 0 { problem = ReportError.reason(errno: errno) }
            if problem != nil { unlink(temporary) }
            TemporaryFiles.forget(temporary)
        } else if owned {
            if close(descriptor) != 0, problem == nil { problem = ReportError.reason(errno: errno) }
        }
        return problem.map { ReportError(what: what, path: path, reason: $0) }
    }

    /// Gives the report up: the temporary file is removed, the target left as it was.
    public func discard() {
        guard !done else { return }
        done = true
        if owned { close(descriptor) }
        if let temporary {
            unlink(temporary)
            TemporaryFiles.forget(temporary)
        }
    }

    deinit { discard() }
}

/// Scratch bytes that belong to a report but are written before it (the JUnit test cases, whose
/// totals come first): a file created and at once unlinked in `folder`, so it takes no name and
/// vanishes with the process however it ends. Write errors are kept, as `ReportFile` keeps them.
final class SpoolFile {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private(set) var problem: String?

    /// Nil (with `errno` set) when no file can be created in `folder`.
    init?(folder: String) {
        let (descriptor, path) = TemporaryFiles.create(in: folder, prefix: ".quire-spool-", register: false)
        guard descriptor >= 0, let path else { return nil }
        unlink(path)
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ text: String) {
        guard problem == nil else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        if problem == nil {
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        problem = ReportError.reason(errno: errno)
                        return
                    }
                    offset += written
                }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Copies everything written into `out`, in chunks (a large suite's cases never sit in
    /// memory whole); a read or write error fails `out`.
    func copy(into out: ReportFile) {
        flush()
        if let problem {
            out.fail(problem)
            return
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while out.problem == nil {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, offset) }
            if count < 0 {
                if errno == EINTR { continue }
                out.fail(ReportError.reason(errno: errno))
                return
            }
            if count == 0 { return }
            chunk.withUnsafeBytes { out.write(bytes: UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            offset += off_t(count)
        }
    }

    deinit { close(descriptor) }
}

/// The temporary files of reports being written, so an interrupted run removes them.
public enum TemporaryFiles {
    private static let files = Locked(Set<String>())

    /// `mkstemp` in `folder` with a name starting `prefix`; the descriptor (or -1, errno set) and
    /// the path. Registered for removal on interruption unless `register` is false.
    static func create(in folder: String, prefix: String, register: Bool = true) -> (Int32, String?) {
        var template = Array(((folder == "/" ? "" : folder) + "/" + prefix + "XXXXXX").utf8CString)
        // Registered under the lock before the file exists, so a signal arriving in between
        // cannot leave it behind (removing a name that does not exist yet is harmless).
        return files.withLock { files in
            let descriptor = mkstemp(&template)
            guard descriptor >= 0 else { return (-1, nil) }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if register { files.insert(path) }
            return (descriptor, path)
        }
    }

    static func forget(_ path: String) {
        _ = files.withLock { $0.remove(path) }
    }

    /// Removes every temporary file still registered, then runs `end`, which ends the process,
    /// still holding the lock: a thread about to create another file waits for it, and so never
    /// creates one that nothing would remove.
    static func removeAll(then end: () -> Never) -> Never {
        files.withLock { files in
            for path in files { unlink(path) }
            end()
        }
    }

    /// How many are being written (tests).
    public static var count: Int { files.withLock { $0.count } }
}

/// Writes a whole file atomically: a temporary file beside it, renamed into place once every
/// byte is written. Nil, or why not.
func writeAtomically(_ bytes: some Collection<UInt8>, to path: String) -> String? {
    let folder = Flow.folder(ofFile: path)
    let (descriptor, temporary) = TemporaryFiles.create(in: folder, prefix: ".quire-")
    guard descriptor >= 0, let temporary else { return "cannot create a file in '\(folder)': \(ReportError.reason(errno: errno))" }
    var problem: String?
    let array = Array(bytes)
    array.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                problem = ReportError.reason(errno: errno)
                return
            }
            offset += written
        }
    }
    let mask = umask(0o022)
    umask(mask)
    fchmod(descriptor, 0o666 & ~mask)
    if close(descriptor) != 0, problem == nil { problem = ReportError.reason(errno: errno) }
    if problem == nil, rename(temporary, path) != 0 { problem = ReportError.reason(errno: errno) }
    if problem != nil { unlink(temporary) }
    TemporaryFiles.forget(temporary)
    return problem
}

/// SIGINT, SIGTERM and SIGHUP during a run: the temporary files of unfinished reports are
/// removed, a line says the run was interrupted, and the process exits with 128 + the signal's
/// number (130, 143, 129), as a shell reports a process killed by it.
///
/// The handler only writes the signal's number to a pipe (all a signal handler may safely do);
/// a thread waiting on the pipe does the rest with ordinary locks, while the run's own threads
/// go on until the process exits.
public enum Interruption {
    nonisolated(unsafe) private static var installed = false

    /// Installs the handlers; `message` gives the line printed for a signal (its name given).
    public static func install(message: @escaping @Sendable (String) -> String) {
        guard !installed else { return }
        installed = true
        guard let ends = SignalPipe.install() else { return }
        let readEnd = ends.read
        let thread = Thread {
            var number: UInt8 = 0
            while true {
                let count = read(readEnd, &number, 1)
                if count == 1 { break }
                if count < 0 && errno == EINTR { continue }
                return
            }
            let line = Array(("\n" + message(SignalPipe.name(of: Int32(number))) + "\n").utf8)
            // The run's threads go on meanwhile: one that finishes a report now would otherwise
            // make a temporary file after the others are removed, and the process end before it
            // is renamed.
            TemporaryFiles.removeAll {
                line.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress!, $0.count) }
                _exit(128 + Int32(number))
            }
        }
        thread.start()
    }
}
