#if canImport(Glibc)
    import Glibc
#endif

/// Calls `body` with a NULL-terminated C array of copies of the strings (GTK's `const char **`
/// lists: accelerators, allowed names), freed when `body` returns.
public func withCStrings<T>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    var list: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
    list.append(nil)
    return list.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}
