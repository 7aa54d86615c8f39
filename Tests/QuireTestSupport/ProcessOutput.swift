import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process's output read to its end as a test reads it: every byte until the writer
/// closes the pipe, a read that a signal interrupts (EINTR) tried again. Foundation's
/// `readDataToEndOfFile()` traps on EINTR, and a suite that starts and signals processes on
/// several threads meets it.
public func readAll(_ pipe: Pipe) -> Data {
    readAll(pipe.fileHandleForReading)
}

/// `readAll` from a file handle (a pipe's reading end).
public func readAll(_ handle: FileHandle) -> Data {
    let descriptor = handle.fileDescriptor
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            data.append(contentsOf: buffer[..<count])
        } else if count == 0 || errno != EINTR {
            return data
        }
    }
}
