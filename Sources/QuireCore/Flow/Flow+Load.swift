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

extension Flow {
    /// Caps on what a flow may hold, beyond the JSON caps.
    public static let maxPages = 100_000
    public static let maxFields = 100_000
    public static let maxOptions = 10_000
    public static let maxTextLength = 100_000
    /// The longest display string (a title, body, label, placeholder or option label, in each
    /// language), in characters: GTK lays a label out in time that grows with the square of its
    /// length (16,000 characters took 30 s), and 2,000 take well under a second.
    public static let maxDisplayCharacters = 2_000
    /// The most fields one page may hold: each is a row of widgets on screen at once.
    public static let maxFieldsPerPage = 1_000

    /// Loads and validates a flow file. A bad flow is rejected whole with every problem listed.
    public static func load(contentsOf path: String, limits: JSONLimits = .default) throws(DocumentError) -> Flow {
        let bytes = try readDocument(path, limits: limits)
        return try load(bytes: bytes, file: path, folder: folder(ofFile: path), limits: limits)
    }

    /// Loads and validates a flow from UTF-8 bytes; `file` names it in diagnostics.
    public static func load(bytes: [UInt8], file: String = "<flow>", limits: JSONLimits = .default) throws(DocumentError)
        -> Flow
    {
        try load(bytes: bytes, file: file, folder: nil, limits: limits)
    }

    /// Loads a flow from UTF-8 bytes read from a file in `folder`: each page's `layout` must then
    /// be a file inside that folder (`PageLayout.resolve`). Without a folder (a flow given as
    /// text), layout paths are checked as written only.
    public static func load(bytes: [UInt8], file: String = "<flow>", folder: String?, limits: JSONLimits = .default)
        throws(DocumentError) -> Flow
    {
        try FlowReader.flow(bytes, file: file, folder: folder, limits: limits)
    }

    /// The folder of a flow file (`.` for a bare name), where its layouts are resolved.
    public static func folder(ofFile path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public static func load(json text: String, file: String = "<flow>") throws(DocumentError) -> Flow {
        try load(bytes: Array(text.utf8), file: file)
    }

    /// Validates the flow object found at `path` of a document being read (a flow file, or a
    /// script's inline flow). Problems go to `reader`; returns nil when there were any.
    public static func load(_ value: JSONValue, at path: JSONPath, reader: inout DocumentReader) -> Flow? {
        FlowReader.flow(value, at: path, reader: &reader)
    }

    /// Why `tag` is not a language tag Quire accepts (BCP 47: `en`, `ja-JP`, `x-klingon`), or
    /// nil when it is one: for flows' display strings and scripts' `locale`.
    public static func languageTagProblem(_ tag: String) -> String? {
        FlowReader.isLanguageTag(tag) ? nil : "'\(tag)' is not a BCP 47 language tag such as 'en' or 'ja-JP'"
    }

    /// Reads a file whole, with a clear error when it cannot be read or is too large. The file's
    /// type is checked before it is opened, and it is opened without blocking, so a named pipe
    /// or a device is reported as what it is and never waited on (`RegularFile`).
    public static func readDocument(_ path: String, limits: JSONLimits = .default) throws(DocumentError) -> [UInt8] {
        try path.withCString { readDocument(cPath: $0, name: path, limits: limits) }.get()
    }

    /// `readDocument` for a path as C bytes (a Linux file name need not be UTF-8), named `name`
    /// in diagnostics: the C API's reader, so a flow file fails the same way everywhere.
    public static func readDocument(cPath path: UnsafePointer<CChar>, name: String, limits: JSONLimits = .default)
        -> Result<[UInt8], DocumentError>
    {
        RegularFile.read(cPath: path, maxBytes: limits.documentBytes).mapError { problem in
            let message: String
            switch problem {
            case .missing(let reason), .unreadable(let reason): message = "cannot read the file: \(reason)"
            case .tooLarge(let size): message = "the document is \(size) bytes; the limit is \(limits.documentBytes)"
            }
            return DocumentError([Diagnostic.whole(file: name, message: message)])
        }
    }
}

/// Why a path cannot be read as a document, in words.
enum FileProblem {
    /// Nil for a regular file, else what it is instead.
    static func notRegular(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "it is a directory"
        case S_IFIFO: "it is a named pipe (FIFO), not a regular file"
        case S_IFCHR: "it is a character device, not a regular file"
        case S_IFBLK: "it is a block device, not a regular file"
        case S_IFSOCK: "it is a socket, not a regular file"
        default: "it is not a regular file"
        }
    }

    static func describe(errno code: Int32, path: UnsafePointer<CChar>) -> String {
        switch code {
        case ENOENT:
            var info = stat()
            return lstat(path, &info) == 0 ? "it is a symbolic link to nothing (its target does not exist)" : "it does not exist"
        case EACCES, EPERM: return "permission denied"
        case ELOOP: return "too many levels of symbolic links (a link loop)"
        case ENOTDIR: return "a part of its path is not a directory"
        case ENAMETOOLONG: return "its name is too long"
        case EIO: return "an I/O error"
        default: return String(cString: strerror(code))
        }
    }
}
