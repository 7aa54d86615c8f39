import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a finished child process left: its exit status and what it printed.
public struct ProcessRun: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// The time limit ran out: the process was killed (SIGKILL) and `status` is not its own.
    public var timedOut = false

    public init(status: Int32, stdout: String, stderr: String, timedOut: Bool = false) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.timedOut = timedOut
    }

    /// The last line of standard output.
    public var lastLine: String { stdout.split(separator: "\n").last.map(String.init) ?? "" }
}

/// Runs `executable` with `arguments` until it exits, as the tests start programs: in `directory`,
/// with `environment` (nil: this process's), standard input empty, and standard output and error
/// each written into a file of its own — so a child that prints a lot never blocks on a full pipe,
/// and nothing is read on another thread. With `mergeOutput`, both go into `stdout` in the order
/// they were written. With `timeout` (seconds), a child still running then is killed with
/// SIGKILL (a child inherits the test runner's signal mask, which blocks SIGTERM). `whenStarted`
/// runs once the child has started (to signal it, say).
public func runProcess(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
    mergeOutput: Bool = false, timeout: TimeInterval? = nil, whenStarted: ((Process) throws -> Void)? = nil
) throws -> ProcessRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if let environment { process.environment = environment }
    let folder = FileManager.default.temporaryDirectory
    let out = folder.appendingPathComponent("quire-test-out-\(UUID().uuidString)")
    let err = folder.appendingPathComponent("quire-test-err-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
    }
    let outHandle = try FileHandle(forWritingTo: out)
    let errHandle = try FileHandle(forWritingTo: err)
    defer {
        try? outHandle.close()
        try? errHandle.close()
    }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = outHandle
    process.standardError = mergeOutput ? outHandle : errHandle
    try process.run()
    try whenStarted?(process)
    var timedOut = false
    if let timeout {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            timedOut = true
        }
    }
    process.waitUntilExit()
    return ProcessRun(
        status: process.terminationStatus, stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self), timedOut: timedOut)
}
