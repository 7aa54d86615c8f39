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

/// A page's GtkBuilder layout (`"layout": "pages/profile.ui"`), the seeds' xib: a file in the
/// flow's folder whose widgets are bound to the page's fields by id.
///
/// The core decides everything about a layout that does not need a toolkit: whether the path may
/// be used (relative, no `..`, inside the flow's folder after links are followed, a regular file,
/// within the size cap), what each id in it means, and which kind of widget each binding needs.
/// A front only loads the file it is given and tells the core each object's id and widget role.
public enum PageLayout {
    /// The largest layout file, in bytes.
    public static let maxBytes = 1 << 20
    /// The longest layout path, in UTF-8 bytes.
    public static let maxPathBytes = 1024

    // MARK: The path

    /// What is wrong with a layout path as written (no file is looked at); nil when it may be used.
    public static func pathProblem(_ path: String) -> String? {
        if path.isEmpty { return "a layout path cannot be empty" }
        if path.utf8.count > maxPathBytes {
            return "the layout path is \(path.utf8.count) bytes long; layout paths have at most \(maxPathBytes)"
        }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "the layout path contains a control character"
        }
        if path.hasPrefix("/") {
            return "the layout path '\(path)' is absolute; give a path relative to the flow's folder"
        }
        if path.hasPrefix("~") {
            return "the layout path '\(path)' starts with '~'; give a path relative to the flow's folder"
        }
        if path.utf8.contains(UInt8(ascii: "\\")) {
            return "the layout path '\(path)' contains a backslash; separate folders with '/'"
        }
        if path.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            return "the layout path '\(path)' contains '..'; a layout is resolved inside the flow's folder only"
        }
        if !path.hasSuffix(".ui") || path.hasSuffix("/.ui") || path == ".ui" {
            return "the layout path '\(path)' does not name a .ui file (a GtkBuilder layout)"
        }
        return nil
    }

    /// A layout file found inside a flow's folder, and its bytes as they were read.
    public struct File: Sendable, Hashable {
        /// The canonical path (links resolved).
        public let path: String
        public let bytes: [UInt8]
    }

    /// Finds `path` in `folder` and reads it: the path must be usable (`pathProblem`), the file
    /// must exist, be a regular file no larger than `maxBytes`, and be inside `folder` once every
    /// symbolic link on the way is followed. The error is a message for a diagnostic.
    public static func resolve(_ path: String, inFolder folder: String) -> Result<File, LayoutError> {
        if let problem = pathProblem(path) { return .failure(LayoutError(problem)) }
        guard let base = canonical(folder.isEmpty ? "." : folder) else {
            return .failure(
                LayoutError(
                    "cannot read the layout '\(path)': the flow's folder cannot be read (\(FileProblem.describe(errno: errno, path: folder)))"
                ))
        }
        let joined = (base == "/" ? "" : base) + "/" + path
        guard let target = canonical(joined) else {
            return .failure(LayoutError("cannot read the layout '\(path)': \(FileProblem.describe(errno: errno, path: joined))"))
        }
        let inside = base == "/" ? target.hasPrefix("/") : target.hasPrefix(base + "/")
        if !inside {
            return .failure(
                LayoutError(
                    "the layout '\(path)' leaves the flow's folder through a symbolic link; a layout is resolved inside the flow's folder only"
                ))
        }
        var info = stat()
        guard stat(target, &info) == 0 else {
            return .failure(LayoutError("cannot read the layout '\(path)': \(FileProblem.describe(errno: errno, path: target))"))
        }
        if let problem = FileProblem.notRegular(info.st_mode) {
            return .failure(LayoutError("cannot read the layout '\(path)': \(problem)"))
        }
        if Int(info.st_size) > maxBytes {
            return .failure(LayoutError("the layout '\(path)' is \(info.st_size) bytes; the limit is \(maxBytes)"))
        }
        do {
            let bytes = try Flow.readDocument(target, limits: JSONLimits(documentBytes: maxBytes))
            return .success(File(path: target, bytes: bytes))
        } catch {
            // The file changed between the look and the read.
            let message = error.diagnostics.first?.message ?? "it cannot be read"
            let reason = message.hasPrefix("cannot read the file: ") ? String(message.dropFirst(22)) : message
            return .failure(LayoutError("cannot read the layout '\(path)': \(reason)"))
        }
    }

    private static func canonical(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    // MARK: Ids and widgets

    /// What an object of a layout is bound to, by its id. Field ids never contain `:`, so ids with
    /// one are Quire's own.
    public enum Binding: Sendable, Hashable {
        /// `page:root`: the page's content, put where the built-in rows would be.
        case root
        /// `page:title`, `page:body`: labels showing the page's title and body.
        case pageTitle, pageBody
        /// `FIELD`: the field's input widget.
        case input(field: Int)
        /// `FIELD:label`: a label showing the field's label.
        case label(field: Int)
        /// `FIELD:error`: a label showing the field's error, hidden while there is none.
        case error(field: Int)

        public var field: Int? {
            switch self {
            case .input(let field), .label(let field), .error(let field): field
            case .root, .pageTitle, .pageBody: nil
            }
        }
    }

    /// What a front says a widget is, for the binding rules (GTK: `GtkEntry`/`GtkText` are
    /// `textInput`, `GtkSwitch`/`GtkCheckButton` `toggle`, `GtkButton` `button`, `GtkLabel`
    /// `label`, any other widget `other`).
    public enum WidgetRole: String, Sendable, Hashable, CaseIterable {
        case textInput, toggle, button, label, other
    }

    /// The ids Quire reads besides field ids.
    public static let pageIDs = ["page:root", "page:title", "page:body"]
    public static let fieldSuffixes = ["label", "error"]

    /// What `id` binds to on page `page` of `flow`, or why it binds to nothing.
    public static func binding(forID id: String, page: Int, in flow: Flow) -> Result<Binding, LayoutError> {
        let pageID = flow.pages[page].id
        switch id {
        case "page:root": return .success(.root)
        case "page:title": return .success(.pageTitle)
        case "page:body": return .success(.pageBody)
        default: break
        }
        let fieldIDs = flow.pages[page].fieldRange.map { flow.fields[$0].id }
        var name = Substring(id)
        var suffix: Substring?
        if let colon = id.firstIndex(of: ":") {
            name = id[..<colon]
            suffix = id[id.index(after: colon)...]
            if name == "page" || !fieldSuffixes.contains(String(suffix!)) {
                let known = (pageIDs + ["FIELD:label", "FIELD:error"]).joined(separator: ", ")
                return .failure(LayoutError("the id '\(id)' is not one Quire binds (ids with ':' are \(known))"))
            }
        }
        guard let field = flow.fieldIndex(of: String(name)), flow.fields[field].page == page else {
            if let field = flow.fieldIndex(of: String(name)) {
                let other = flow.pages[flow.fields[field].page].id
                return .failure(LayoutError("the id '\(id)' names a field of page '\(other)', not of page '\(pageID)'"))
            }
            var message = "the id '\(id)' is not a field of page '\(pageID)'"
            if let near = DocumentReader.closest(to: String(name), in: fieldIDs) {
                message += "; did you mean '\(near)\(suffix.map { ":\($0)" } ?? "")'?"
            } else if fieldIDs.isEmpty {
                message += " (the page has no fields)"
            } else {
                message += " (its fields are \(fieldIDs.joined(separator: ", ")))"
            }
            return .failure(LayoutError(message))
        }
        switch suffix {
        case nil: return .success(.input(field: field))
        case "label"?: return .success(.label(field: field))
        default: return .success(.error(field: field))
        }
    }

    /// The roles a binding accepts.
    public static func roles(for binding: Binding, in flow: Flow) -> [WidgetRole] {
        switch binding {
        case .root: return WidgetRole.allCases
        case .pageTitle, .pageBody, .label, .error: return [.label]
        case .input(let field):
            switch flow.fields[field].kind {
            case .text: return [.textInput]
            case .toggle: return [.toggle]
            case .duration, .choice: return [.button]
            }
        }
    }

    /// Why a widget of type `typeName` (in `role`) cannot take binding `id`; nil when it can.
    public static func widgetProblem(id: String, binding: Binding, role: WidgetRole, typeName: String, in flow: Flow)
        -> LayoutError?
    {
        if roles(for: binding, in: flow).contains(role) { return nil }
        let wanted: String
        switch binding {
        case .root: return nil
        case .pageTitle: wanted = "the page's title binds to a GtkLabel"
        case .pageBody: wanted = "the page's body binds to a GtkLabel"
        case .label: wanted = "a field's label binds to a GtkLabel"
        case .error: wanted = "a field's error binds to a GtkLabel"
        case .input(let field):
            switch flow.fields[field].kind {
            case .text: wanted = "a text field binds to a GtkEntry or GtkText"
            case .toggle: wanted = "a toggle binds to a GtkSwitch or GtkCheckButton"
            case .duration: wanted = "a duration field binds to a GtkButton (it opens the picker)"
            case .choice: wanted = "a choice field binds to a GtkButton (it opens the picker)"
            }
        }
        return LayoutError("the widget '\(id)' is a \(typeName), but \(wanted)")
    }

    /// What a layout of page `page` lacks, given the bindings it has: its root, and an input for
    /// each of the page's fields.
    public static func missing(_ bound: Set<Binding>, page: Int, in flow: Flow) -> [LayoutError] {
        var problems: [LayoutError] = []
        if !bound.contains(.root) {
            problems.append(LayoutError("the layout has no widget with the id 'page:root' (the page's content)"))
        }
        for field in flow.pages[page].fieldRange where !bound.contains(.input(field: field)) {
            let id = flow.fields[field].id
            problems.append(LayoutError("the field '\(id)' has no widget in the layout (give its input widget the id '\(id)')"))
        }
        return problems
    }

    /// The object types a layout may create (GtkBuilder `class` names): containers, labels and
    /// the input widgets Quire binds. Nothing that reads files, runs commands or opens windows.
    /// The layout policy's list (`LayoutPolicy.classes`), the one list: GTK's builder scope
    /// creates only these.
    public static let allowedTypes: Set<String> = Set(LayoutPolicy.classes.keys)

    /// Why a layout may not create an object of `typeName`; nil when it may.
    public static func typeProblem(_ typeName: String) -> LayoutError? {
        if allowedTypes.contains(typeName) { return nil }
        return LayoutError(
            "the type '\(typeName)' is not allowed in a layout (allowed: \(allowedTypes.sorted().joined(separator: ", ")))")
    }

    /// The message when a layout asks to connect a signal (`<signal>`) or builds a closure:
    /// layouts hold no code.
    public static func signalProblem(_ name: String) -> LayoutError {
        LayoutError("the layout connects the handler '\(name)'; layouts cannot connect signals (Quire binds widgets by id)")
    }
}

/// A problem with a page's layout, as one message.
public struct LayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
