// FoundationEssentials where the toolchain splits Foundation (Linux): libquire then needs neither
// Foundation's full library nor ICU, most of a headless host's memory (docs/embedding.md).
#if canImport(FoundationEssentials)
    import FoundationEssentials
    #if canImport(Glibc)
        import Glibc
    #endif
#else
    import Foundation
#endif

/// Reads a file that must be a regular file of bounded size, and never waits on anything else.
///
/// The one way Quire reads a document from a path — flows, scripts, layouts, `--drive` events,
/// and the app's autosave, settings and timer files:
///
/// - the path is looked at first (`stat`, following links): a folder, a named pipe, a device or a
///   socket is refused by what it is, before anything is opened;
/// - it is opened with `O_NONBLOCK` (a named pipe put there in between does not wait for a
///   writer) and `O_NOCTTY` (a terminal never becomes the controlling one);
/// - what was opened is checked again (`fstat`: a regular file), and its size against the limit
///   before a byte is read, so `/dev/zero`, a 2 GiB sparse file or a link to either costs nothing;
/// - it is read to its end, and refused if it grew past the limit meanwhile.
public enum RegularFile {
    /// Why a file could not be read.
    public enum Problem: Error, Sendable, Hashable {
        /// Nothing is there: the path, or a folder on the way, does not exist (`ENOENT`,
        /// `ENOTDIR`). A link to nothing is `unreadable`: something is there.
        case missing(String)
        /// It is there but cannot be read as a document: what it is instead, or the system's reason.
        case unreadable(String)
        /// It is larger than the limit (its size as measured).
        case tooLarge(Int)

        /// The reason in words (for `tooLarge`, with the limit it was read with).
        public func reason(limit: Int) -> String {
            switch self {
            case .missing(let reason), .unreadable(let reason): reason
            case .tooLarge(let size): "it is \(size) bytes; the limit is \(limit)"
            }
        }
    }

    /// The bytes of the regular file at `path`, at most `maxBytes` of them.
    public static func read(_ path: String, maxBytes: Int) -> Result<[UInt8], Problem> {
        path.withCString { read(cPath: $0, maxBytes: maxBytes) }
    }

    /// `read` for a path as C bytes (a Linux file name need not be UTF-8).
    public static func read(cPath path: UnsafePointer<CChar>, maxBytes: Int) -> Result<[UInt8], Problem> {
        func failure(_ code: Int32) -> Result<[UInt8], Problem> {
            let reason = FileProblem.describe(errno: code, path: path)
            if code == ENOTDIR { return .failure(.missing(reason)) }
            if code == ENOENT {
                // A link to nothing is something: it is set aside, not taken for no file.
                var info = stat()
                return .failure(lstat(path, &info) == 0 ? .unreadable(reason) : .missing(reason))
            }
            return .failure(.unreadable(reason))
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return failure(errno) }
        if let problem = FileProblem.notRegular(info.st_mode) { return .failure(.unreadable(problem)) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return failure(errno) }
        defer { close(descriptor) }
        // What was opened may not be what was looked at (the path changed in between).
        guard fstat(descriptor, &info) == 0 else { return failure(errno) }
        if let problem = FileProblem.notRegular(info.st_mode) { return .failure(.unreadable(problem)) }
        if Int(info.st_size) > maxBytes { return .failure(.tooLarge(Int(info.st_size))) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                // The file grew since it was measured.
                if count > maxBytes { return .failure(.tooLarge(count)) }
                bytes.append(contentsOf: repeatElement(0, count: min(max(4096, count), maxBytes + 1 - count)))
            }
            let read = bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                    Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
                #else
                    Foundation.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
                #endif
            }
            if read < 0 {
                if errno == EINTR { continue }
                return failure(errno)
            }
            if read == 0 { break }
            count += read
        }
        if count > maxBytes { return .failure(.tooLarge(count)) }
        bytes.removeLast(bytes.count - count)
        return .success(bytes)
    }
}
