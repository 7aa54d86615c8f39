#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file named by a C path, whatever its bytes (Linux file names need not be UTF-8).
enum FileReader {
    struct Problem: Error {
        var message: String
    }

    static func read(_ path: UnsafePointer<CChar>, limit: Int) -> Result<[UInt8], Problem> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(Problem(message: "cannot read the file: \(reason(errno))")) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(Problem(message: "cannot read the file: \(reason(errno))")) }
        if (status.st_mode & S_IFMT) == S_IFDIR { return .failure(Problem(message: "cannot read the file: it is a directory")) }
        if Int(status.st_size) > limit {
            return .failure(Problem(message: "the document is \(status.st_size) bytes; the limit is \(limit)"))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Problem(message: "cannot read the file: \(reason(errno))"))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            // A file that grows while it is read (or a pipe) is held to the same limit.
            if bytes.count > limit { return .failure(Problem(message: "the document is larger than the limit of \(limit) bytes")) }
        }
        return .success(bytes)
    }

    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "it does not exist"
        case EACCES, EPERM: "permission denied"
        case ENOTDIR: "a folder in its path is not a folder"
        case EISDIR: "it is a directory"
        default: strerror(code).map { String(cString: $0) } ?? "error \(code)"
        }
    }
}
