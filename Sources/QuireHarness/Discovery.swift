import Foundation

/// Finds the `*.json` files under the paths a user names, for `quire test` and `quire check`.
/// Symbolic links are followed; what cannot be walked (a folder that cannot be read, a link to
/// nothing, a link loop) is an entry with a problem, so it is reported as bad input instead of
/// being skipped.
public enum FileWalker {
    public struct Entry: Sendable, Hashable {
        public var path: String
        /// The folders between the folder that was walked and the file (empty for a file in it).
        public var folders: [String]
        /// Why the path cannot be used, as the message of a whole-file diagnostic.
        public var problem: String?
    }

    /// What a path is, links followed.
    public enum Kind: Sendable, Hashable {
        case file
        case folder(device: UInt64, inode: UInt64)
        /// A FIFO, a device or a socket: read like a file, which says what is wrong with it.
        case other
        case missing
        case problem(String)
    }

    public static func kind(of path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .missing : .problem("cannot read it: \(reason(errno))")
        }
        if info.st_mode & S_IFMT == S_IFLNK {
            guard stat(path, &info) == 0 else {
                switch errno {
                case ENOENT, ENOTDIR:
                    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                    return .problem("a symbolic link to nothing: its target '\(target)' does not exist")
                case ELOOP:
                    return .problem("a symbolic link loop: its links never reach a file or folder")
                default:
                    return .problem("cannot follow the symbolic link: \(reason(errno))")
                }
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        case S_IFREG: return .file
        default: return .other
        }
    }

    /// Every `*.json` file under `folder`, sorted by path, with the problems met on the way.
    public static func jsonFiles(in folder: String) -> [Entry] {
        var entries: [Entry] = []
        if case .folder(let device, let inode) = kind(of: folder) {
            walk(folder, folders: [], ancestors: [(device, inode, folder)], into: &entries)
        }
        return entries.sorted { $0.path < $1.path }
    }

    private static func walk(
        _ folder: String, folders: [String], ancestors: [(device: UInt64, inode: UInt64, path: String)], into entries: inout [Entry]
    ) {
        let names: [(name: String, type: UInt8)]
        switch list(folder) {
        case .success(let list): names = list
        case .failure(let code):
            // The folder itself is the entry; for the folder named on the command line too.
            entries.append(Entry(path: folder, folders: folders, problem: "cannot read the folder: \(reason(code))"))
            return
        }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        for (name, type) in names {
            // A regular file is known from its folder's listing: only other entries (folders,
            // links, or where the file system does not say) are looked at, one system call each.
            let isJSON = name.hasSuffix(".json")
            if type == UInt8(DT_REG) && !isJSON { continue }
            let path = prefix + name
            switch type == UInt8(DT_REG) ? .file : kind(of: path) {
            case .folder(let device, let inode):
                if let ancestor = ancestors.first(where: { $0.device == device && $0.inode == inode }) {
                    entries.append(
                        Entry(path: path, folders: folders, problem: "a symbolic link loop: it leads back to '\(ancestor.path)'"))
                } else {
                    walk(path, folders: folders + [name], ancestors: ancestors + [(device, inode, path)], into: &entries)
                }
            case .file, .other:
                if isJSON { entries.append(Entry(path: path, folders: folders, problem: nil)) }
            case .missing:
                break  // removed while we looked
            case .problem(let message):
                // A link that cannot be followed might have been a script or a folder of them.
                entries.append(Entry(path: path, folders: folders, problem: message))
            }
        }
    }

    /// The names in a folder (without `.` and `..`), or why it cannot be read.
    /// The names in `folder` with their types as the listing gives them (`DT_UNKNOWN` when the
    /// file system does not say).
    private static func list(_ folder: String) -> Result<[(name: String, type: UInt8)], Errno> {
        guard let stream = opendir(folder) else { return .failure(Errno(errno)) }
        defer { closedir(stream) }
        var names: [(name: String, type: UInt8)] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { return .failure(Errno(errno)) }
                break
            }
            // The name is read where it is, up to its NUL: an entry is only as long as its name
            // (`d_reclen`), so a copy of the whole `d_name` array reads past the end of the
            // listing's buffer when the entry is its last.
            let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            let bytes = UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self)))
            let name = String(decoding: bytes, as: UTF8.self)
            // Decoding replaces each ill-formed sequence by U+FFFD: the name is UTF-8 when it
            // decodes to its own bytes.
            let isUTF8 = name.utf8.elementsEqual(bytes)
            // A name that is not UTF-8 cannot be opened by its decoded String: its type is then
            // not taken from the listing, and the lookup by that String finds nothing, as for
            // any entry that vanished.
            let type = isUTF8 ? entry.pointee.d_type : UInt8(DT_UNKNOWN)
            if name != "." && name != ".." { names.append((name, type)) }
        }
        return .success(names)
    }

    public struct Errno: Error {
        public var code: Int32
        init(_ code: Int32) { self.code = code }
    }

    static func reason(_ error: Errno) -> String { reason(error.code) }

    /// `strerror`, in the lower case of our other messages ("permission denied").
    static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard let first = text.first else { return "error \(code)" }
        return first.lowercased() + text.dropFirst()
    }

    /// The name a path is known by (the last component of its absolute, normalized form):
    /// `./data/sessions`, `data/sessions/` and `data//sessions` are all `sessions`.
    public static func name(of path: String) -> String {
        let name = URL(fileURLWithPath: path).standardizedFileURL.lastPathComponent
        return name == "/" ? "" : name
    }

    /// `NSString.lastPathComponent` of a path the walker found (`folder/name`): the text after
    /// its last `/`, without bridging to `NSString` (a sixth of discovering a script). A path
    /// with no `/` or that ends in one is left to `NSString`.
    static func lastComponent(of path: String) -> String {
        if let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) {
            let start = path.utf8.index(after: slash)
            if start != path.utf8.endIndex { return String(path[start...]) }
        }
        return (path as NSString).lastPathComponent
    }

    /// The name of the folder a path is in, normalized the same way.
    public static func parentName(of path: String) -> String {
        let name = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().lastPathComponent
        return name == "/" ? "" : name
    }
}
