import CGtk

/// Writes a file with GIO in the background (`g_file_replace_contents_bytes_async`): the main
/// loop runs on while the bytes go to disk, and `done` is called on it with nil, or the error's
/// message. `cancel()` stops the write; `done` is then not called.
@MainActor
public final class FileWrite {
    private let cancellable = g_cancellable_new()
    private var done: ((String?) -> Void)?

    /// Starts writing `contents` to `path` (replaced atomically, readable by the user only).
    public init(path: String, contents: [UInt8], done: @escaping @MainActor (String?) -> Void) {
        self.done = done
        let file = g_file_new_for_path(path)
        let bytes = contents.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        let box = Unmanaged.passRetained(self).toOpaque()
        g_file_replace_contents_bytes_async(
            file, bytes, nil, 0, G_FILE_CREATE_PRIVATE, cancellable,
            { source, result, data in
                let write = Unmanaged<FileWrite>.fromOpaque(data!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let ok = g_file_replace_contents_finish(OpaquePointer(source), result, nil, &error)
                let message = ok != 0 ? nil : error.map { String(cString: $0.pointee.message) } ?? "the file could not be written"
                let cancelled = error.map { g_error_matches($0, g_io_error_quark(), gint(G_IO_ERROR_CANCELLED.rawValue)) != 0 } ?? false
                if let error { g_error_free(error) }
                MainActor.assumeIsolated { write.finish(cancelled ? nil : message, cancelled: cancelled) }
            }, box)
        g_bytes_unref(bytes)
        g_object_unref(UnsafeMutableRawPointer(file))
    }

    private func finish(_ message: String?, cancelled: Bool) {
        let done = self.done
        self.done = nil
        if !cancelled { done?(message) }
    }

    /// Stops the write; `done` is not called.
    public func cancel() {
        done = nil
        g_cancellable_cancel(cancellable)
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(cancellable))
    }
}
