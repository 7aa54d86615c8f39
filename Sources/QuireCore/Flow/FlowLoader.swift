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
        // The fast path reads a good flow in one pass; anything else is read again below, which
        // gives every diagnostic.
        if let flow = FlowReader.flow(bytes, folder: folder, limits: limits) { return flow }
        return try loadFully(bytes: bytes, file: file, folder: folder, limits: limits)
    }

    /// The full path: the document parsed to a `JSONValue`, then every check of `FlowLoader`,
    /// every problem found with its position.
    static func loadFully(bytes: [UInt8], file: String, folder: String?, limits: JSONLimits) throws(DocumentError) -> Flow {
        let (value, reader) = try DocumentReader.parse(file: file, bytes: bytes, limits: limits)
        var document = reader
        var loader = FlowLoader(reader: document)
        loader.folder = folder
        var flow = loader.flow(value, at: .root)
        document = loader.reader
        try document.finish()
        guard !document.hasProblems, flow != nil else { throw DocumentError(document.diagnostics()) }
        flow!.folder = folder
        return flow!
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
        var loader = FlowLoader(reader: reader)
        let flow = loader.flow(value, at: path)
        reader = loader.reader
        return loader.reader.hasProblems ? nil : flow
    }

    /// Why `tag` is not a language tag Quire accepts (BCP 47: `en`, `ja-JP`, `x-klingon`), or
    /// nil when it is one: for flows' display strings and scripts' `locale`.
    public static func languageTagProblem(_ tag: String) -> String? {
        FlowLoader.isLanguageTag(tag) ? nil : "'\(tag)' is not a BCP 47 language tag such as 'en' or 'ja-JP'"
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

/// Walks a flow document, checking everything CONTRACT §1 requires, collecting every problem.
struct FlowLoader {
    var reader: DocumentReader

    /// What the loader knows about each field id declared anywhere in the flow (a pre-pass), so a
    /// condition can tell "unknown" from "looks ahead".
    struct Declared {
        var page: Int
        var ordinal: Int
        var path: JSONPath
    }
    var declared: [String: Declared] = [:]
    /// The ordinal of each page's first field (fields before it are on earlier pages).
    var pageStartOrdinal: [Int] = []
    var suggestionsGiven = 0
    var sortedFieldIDs: [String]?
    /// Fields built so far, by id (conditions may name only these).
    var built: [String: (index: Int, field: Field)] = [:]

    /// The flow file's folder, where layouts are resolved; nil when the flow has none.
    var folder: String?

    init(reader: DocumentReader) {
        self.reader = reader
    }

    static let topKeys = ["format", "id", "title", "paging", "accessory", "pages"]
    static let pagingKeys = [
        "wrap", "swipe", "gate", "indicator", "snapDistance", "flingVelocity", "animationMs", "autoAdvanceMs",
    ]
    static let pageKeys = ["id", "title", "body", "visibleIf", "fields", "layout"]
    static let commonFieldKeys = [
        "id", "kind", "label", "default", "required", "visibleIf", "enabledIf", "requiredIf", "accessory",
    ]
    static let kindKeys: [String: [String]] = [
        "text": ["placeholder", "minLength", "maxLength", "returnKey"],
        "duration": ["components", "minuteInterval", "min", "max"],
        "choice": ["options"],
        "toggle": [],
    ]
    static let reservedFieldIDs: Set<String> = ["background"]

    mutating func flow(_ value: JSONValue, at path: JSONPath) -> Flow? {
        guard let object = reader.object(value, at: path, what: "a flow") else { return nil }
        reader.checkKeys(object, at: path, allowed: Self.topKeys, required: ["format", "id", "pages"], what: "the flow")

        if let format = object["format"] {
            if let text = reader.string(format, at: path + "format", what: "format") {
                if text != Flow.format {
                    if text.hasPrefix("quire.flow/") {
                        reader.error(
                            path + "format",
                            "unknown format version '\(text)'; this Quire reads '\(Flow.format)'")
                    } else {
                        reader.error(path + "format", "format must be '\(Flow.format)', not '\(text)'")
                    }
                }
            }
        }
        let id = object["id"].flatMap { identifier($0, at: path + "id", what: "the flow id") }
        let title = object["title"].flatMap { localized($0, at: path + "title", what: "title") }
        let paging = object["paging"].map { self.paging($0, at: path + "paging") } ?? Paging()
        let accessory = object["accessory"].flatMap { accessoryItems($0, at: path + "accessory") }

        var pages: [Page] = []
        var fields: [Field] = []
        if let pagesValue = object["pages"], let list = reader.array(pagesValue, at: path + "pages", what: "pages") {
            if list.isEmpty { reader.error(path + "pages", "a flow needs at least one page") }
            if list.count > Flow.maxPages { reader.error(path + "pages", "a flow has at most \(Flow.maxPages) pages") }
            declareFields(list, at: path + "pages")
            var pageIDs: [String: Int] = [:]
            for (pageIndex, pageValue) in list.prefix(Flow.maxPages).enumerated() {
                let pagePath = path + "pages" + pageIndex
                if let page = page(pageValue, at: pagePath, index: pageIndex, fields: &fields) {
                    if pageIDs[page.id] != nil {
                        reader.error(pagePath + "id", "duplicate page id '\(page.id)' (the page at $.pages[\(pageIDs[page.id]!)] has it too)")
                    } else {
                        pageIDs[page.id] = pageIndex
                    }
                    pages.append(page)
                }
            }
        }
        guard !reader.hasProblems, let id else { return nil }
        return Flow(id: id, title: title, paging: paging, accessory: accessory, pages: pages, fields: fields, document: value)
    }

    /// Pre-pass: every field id with its page and document ordinal; duplicates are reported here.
    mutating func declareFields(_ pages: [JSONValue], at path: JSONPath) {
        var ordinal = 0
        for (pageIndex, page) in pages.enumerated() {
            pageStartOrdinal.append(ordinal)
            guard case .array(let fields)? = page["fields"] else { continue }
            for (fieldIndex, field) in fields.enumerated() {
                defer { ordinal += 1 }
                guard case .string(let id)? = field["id"] else { continue }
                let fieldPath = path + pageIndex + "fields" + fieldIndex
                if let earlier = declared[id] {
                    reader.error(
                        fieldPath + "id",
                        "duplicate field id '\(id)' (ids are unique in the whole flow; the field at \(earlier.path) has it too)")
                } else {
                    declared[id] = Declared(page: pageIndex, ordinal: ordinal, path: fieldPath)
                }
            }
        }
    }

    // MARK: Pieces

    mutating func identifier(_ value: JSONValue, at path: JSONPath, what: String) -> String? {
        guard let text = reader.string(value, at: path, what: what) else { return nil }
        let valid =
            !text.isEmpty && text.utf8.count <= 64
            && text.utf8.allSatisfy { byte in
                (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == 46
                    || byte == 95 || byte == 45
            }
        guard valid else {
            if text.utf8.count > 64 && text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x20 }) {
                reader.error(path, "\(what) is \(text.count) characters long; ids have at most 64")
            } else {
                reader.error(path, "\(what) '\(text)' must be 1 to 64 characters from A-Z a-z 0-9 . _ -")
            }
            return nil
        }
        return text
    }

    mutating func localized(_ value: JSONValue, at path: JSONPath, what: String) -> LocalizedText? {
        switch value {
        case .string(let text):
            checkDisplayLength(text, at: path, what: what)
            return LocalizedText(text)
        case .object(let object):
            if object.isEmpty {
                reader.error(path, "\(what) needs at least one language")
                return nil
            }
            var entries: [LocalizedText.Entry] = []
            entries.reserveCapacity(object.count)
            for (tag, text) in object {
                if let problem = Flow.languageTagProblem(tag) {
                    reader.error(path + tag, problem, onKey: true)
                }
                if let text = reader.string(text, at: path + tag, what: "\(what) in '\(tag)'") {
                    checkDisplayLength(text, at: path + tag, what: "\(what) in '\(tag)'")
                    entries.append(LocalizedText.Entry(tag: tag, text: text))
                }
            }
            return LocalizedText(storage: entries)
        default:
            reader.error(path, "\(what) must be a string or an object of language tags to strings, not \(value.typeName)")
            return nil
        }
    }

    /// A display string longer than `Flow.maxDisplayCharacters` is a problem at `path`.
    mutating func checkDisplayLength(_ text: String, at path: JSONPath, what: String) {
        // Characters are never more than bytes: most texts are decided without counting.
        guard text.utf8.count > Flow.maxDisplayCharacters else { return }
        let count = text.count
        if count > Flow.maxDisplayCharacters {
            reader.error(
                path,
                "\(what) is \(count) characters long; a display string has at most \(Flow.maxDisplayCharacters) (a longer text takes seconds to lay out)")
        }
    }

    /// Whether `tag` has the shape of a BCP 47 tag: a primary subtag of 2–8 ASCII letters (or
    /// `x`/`X` followed by private-use subtags), then `-`-separated subtags of 1–8 ASCII letters
    /// and digits. Read over the UTF-8 bytes in place: a flow has a tag in every display string.
    static func isLanguageTag(_ tag: String) -> Bool {
        var tag = tag
        return tag.withUTF8 { isLanguageTag($0) }
    }

    /// `isLanguageTag` over a tag's UTF-8 bytes.
    static func isLanguageTag(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let dash = UInt8(ascii: "-")
        @inline(__always) func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
        @inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
        var start = 0
        var first = true
        for end in 0...bytes.count where end == bytes.count || bytes[end] == dash {
            let length = end - start
            if first {
                let privateUse = length == 1 && bytes[start] | 0x20 == UInt8(ascii: "x") && end < bytes.count
                if !privateUse {
                    guard length >= 2 && length <= 8 else { return false }
                    for at in start..<end where !isLetter(bytes[at]) { return false }
                }
                first = false
            } else {
                guard length >= 1 && length <= 8 else { return false }
                for at in start..<end where !(isLetter(bytes[at]) || isDigit(bytes[at])) { return false }
            }
            start = end + 1
        }
        return true
    }

    mutating func paging(_ value: JSONValue, at path: JSONPath) -> Paging {
        var paging = Paging()
        guard let object = reader.object(value, at: path, what: "paging") else { return paging }
        reader.checkKeys(object, at: path, allowed: Self.pagingKeys, what: "paging")
        if let v = object["wrap"], let b = reader.bool(v, at: path + "wrap", what: "wrap") { paging.wrap = b }
        if let v = object["swipe"], let b = reader.bool(v, at: path + "swipe", what: "swipe") { paging.swipe = b }
        if let v = object["gate"], let text = reader.string(v, at: path + "gate", what: "gate") {
            if let gate = Paging.Gate(rawValue: text) {
                paging.gate = gate
            } else {
                reader.error(path + "gate", "gate must be 'valid' or 'none', not '\(text)'")
            }
        }
        if let v = object["indicator"], let indicator = reader.object(v, at: path + "indicator", what: "indicator") {
            let at = path + "indicator"
            reader.checkKeys(indicator, at: at, allowed: ["style", "hidesForSinglePage"], what: "the indicator")
            if let v = indicator["style"], let text = reader.string(v, at: at + "style", what: "style") {
                if let style = Paging.IndicatorStyle(rawValue: text) {
                    paging.indicatorStyle = style
                } else {
                    reader.error(at + "style", "style must be 'dots', 'numbers' or 'none', not '\(text)'")
                }
            }
            if let v = indicator["hidesForSinglePage"],
                let b = reader.bool(v, at: at + "hidesForSinglePage", what: "hidesForSinglePage")
            {
                paging.hidesForSinglePage = b
            }
        }
        if let v = object["snapDistance"],
            let n = reader.number(v, at: path + "snapDistance", what: "snapDistance", in: 0.01...1)
        {
            paging.snapDistance = n
        }
        if let v = object["flingVelocity"],
            let n = reader.number(v, at: path + "flingVelocity", what: "flingVelocity", in: 1...100_000)
        {
            paging.flingVelocity = n
        }
        if let v = object["animationMs"],
            let n = reader.integer(v, at: path + "animationMs", what: "animationMs", in: 0...10_000)
        {
            paging.animationMs = Double(n)
        }
        if let v = object["autoAdvanceMs"],
            let n = reader.integer(v, at: path + "autoAdvanceMs", what: "autoAdvanceMs", in: 0...3_600_000)
        {
            if n > 0 && n < 100 {
                reader.error(path + "autoAdvanceMs", "autoAdvanceMs must be 0 (off) or at least 100, not \(n)")
            }
            paging.autoAdvanceMs = Double(n)
        }
        return paging
    }

    mutating func accessoryItems(_ value: JSONValue, at path: JSONPath) -> [AccessoryItem]? {
        guard let list = reader.array(value, at: path, what: "accessory") else { return nil }
        var items: [AccessoryItem] = []
        let names = AccessoryItem.allCases.map(\.rawValue)
        for (at, entry) in list.enumerated() {
            guard let name = reader.string(entry, at: path + at, what: "an accessory item") else { continue }
            guard let item = AccessoryItem(rawValue: name) else {
                var message = "unknown accessory item '\(name)'; items are \(names.joined(separator: ", "))"
                if let near = DocumentReader.closest(to: name, in: names) { message = "unknown accessory item '\(name)'; did you mean '\(near)'?" }
                reader.error(path + at, message)
                continue
            }
            if item != .flexibleSpace && item != .fixedSpace && items.contains(item) {
                reader.error(path + at, "accessory item '\(name)' appears twice")
                continue
            }
            items.append(item)
        }
        return items
    }

    mutating func page(_ value: JSONValue, at path: JSONPath, index: Int, fields: inout [Field]) -> Page? {
        guard let object = reader.object(value, at: path, what: "a page") else { return nil }
        reader.checkKeys(object, at: path, allowed: Self.pageKeys, required: ["id"], what: "a page")
        let id = object["id"].flatMap { identifier($0, at: path + "id", what: "the page id") }
        let title = object["title"].flatMap { localized($0, at: path + "title", what: "title") }
        let body = object["body"].flatMap { localized($0, at: path + "body", what: "body") }
        let scope = Scope(page: index, ordinal: declaredOrdinalOfPage(index), what: "a page's condition", field: nil)
        let visibleIf = object["visibleIf"].flatMap { condition($0, at: path + "visibleIf", scope: scope) }
        let start = fields.count
        if let fieldsValue = object["fields"], let list = reader.array(fieldsValue, at: path + "fields", what: "fields") {
            for (at, fieldValue) in list.enumerated() {
                if at == Flow.maxFieldsPerPage {
                    reader.error(path + "fields" + at, "a page has at most \(Flow.maxFieldsPerPage) fields (this one has \(list.count))")
                    break
                }
                if fields.count >= Flow.maxFields {
                    reader.error(path + "fields" + at, "a flow has at most \(Flow.maxFields) fields")
                    break
                }
                if let field = field(
                    fieldValue, at: path + "fields" + at, page: index, ordinal: declaredOrdinalOfPage(index) + at)
                {
                    built[field.id] = (fields.count, field)
                    fields.append(field)
                }
            }
        }
        let layout = object["layout"].flatMap { self.layout($0, at: path + "layout") }
        guard let id else { return nil }
        return Page(id: id, title: title, body: body, visibleIf: visibleIf, fieldRange: start..<fields.count, layout: layout)
    }

    /// A page's `layout`: a usable path, and with a folder, a file inside it (`PageLayout`).
    mutating func layout(_ value: JSONValue, at path: JSONPath) -> String? {
        guard let text = reader.string(value, at: path, what: "layout") else { return nil }
        if let problem = PageLayout.pathProblem(text) {
            reader.error(path, problem)
            return nil
        }
        if let folder, case .failure(let problem) = PageLayout.resolve(text, inFolder: folder) {
            reader.error(path, problem.message)
            return nil
        }
        return text
    }

    /// The ordinal of the first field of page `index` (fields before it are all on earlier pages).
    func declaredOrdinalOfPage(_ index: Int) -> Int {
        index < pageStartOrdinal.count ? pageStartOrdinal[index] : 0
    }

    struct Scope {
        /// Conditions may name fields declared before this ordinal.
        var page: Int
        var ordinal: Int
        var what: String
        /// The field whose condition this is (nil for a page's).
        var field: String?
    }

    mutating func field(_ value: JSONValue, at path: JSONPath, page: Int, ordinal: Int) -> Field? {
        guard let object = reader.object(value, at: path, what: "a field") else { return nil }
        let kindName = object["kind"].flatMap { reader.string($0, at: path + "kind", what: "kind") }
        let kindKeys = kindName.flatMap { Self.kindKeys[$0] }
        if let kindName, kindKeys == nil {
            reader.error(path + "kind", "unknown field kind '\(kindName)'; kinds are text, duration, choice, toggle")
        }
        // Keys of another kind get a message that names the kind they belong to.
        for key in object.keys where !Self.commonFieldKeys.contains(key) && !(kindKeys ?? []).contains(key) {
            if let kindName, kindKeys != nil,
                let owner = Self.kindKeys.first(where: { $0.value.contains(key) })?.key
            {
                reader.error(path + key, "'\(key)' belongs to \(owner) fields, not \(kindName) fields", onKey: true)
            } else if kindKeys != nil || Self.kindKeys.values.allSatisfy({ !$0.contains(key) }) {
                // (With no usable kind, keys that belong to some kind are not judged.)
                var message = "unknown key '\(key)' in a field"
                if let near = DocumentReader.closest(to: key, in: Self.commonFieldKeys + (kindKeys ?? [])) {
                    message += "; did you mean '\(near)'?"
                }
                reader.error(path + key, message, onKey: true)
            }
        }
        if object["id"] == nil { reader.error(path, "a field is missing the required key 'id'") }
        if object["kind"] == nil { reader.error(path, "a field is missing the required key 'kind'") }

        let id = object["id"].flatMap { identifier($0, at: path + "id", what: "the field id") }
        if let id, Self.reservedFieldIDs.contains(id) {
            reader.error(path + "id", "the field id '\(id)' is reserved for taps on the page background")
        }
        let label = object["label"].flatMap { localized($0, at: path + "label", what: "label") }
        let required = object["required"].flatMap { reader.bool($0, at: path + "required", what: "required") } ?? false
        let scope = Scope(page: page, ordinal: ordinal, what: "a field's condition", field: id)
        let visibleIf = object["visibleIf"].flatMap { condition($0, at: path + "visibleIf", scope: scope) }
        let enabledIf = object["enabledIf"].flatMap { condition($0, at: path + "enabledIf", scope: scope) }
        let requiredIf = object["requiredIf"].flatMap { condition($0, at: path + "requiredIf", scope: scope) }
        let accessory = object["accessory"].flatMap { accessoryItems($0, at: path + "accessory") }

        var kind: Field.Kind?
        var defaultValue = FieldValue.null
        // `"default": null` says "no default", as leaving it out does.
        let defaultJSON: JSONValue? = switch object["default"] {
        case .none, .some(.null): nil
        case .some(let value): value
        }
        switch kindName {
        case "text":
            var options = TextOptions()
            options.placeholder = object["placeholder"].flatMap { localized($0, at: path + "placeholder", what: "placeholder") }
            options.minLength = object["minLength"].flatMap {
                reader.integer($0, at: path + "minLength", what: "minLength", in: 0...Flow.maxTextLength)
            }
            options.maxLength = object["maxLength"].flatMap {
                reader.integer($0, at: path + "maxLength", what: "maxLength", in: 1...Flow.maxTextLength)
            }
            if let minLength = options.minLength, let maxLength = options.maxLength, minLength > maxLength {
                reader.error(path + "minLength", "minLength \(minLength) is greater than maxLength \(maxLength)")
            }
            if let v = object["returnKey"], let text = reader.string(v, at: path + "returnKey", what: "returnKey") {
                if let key = ReturnKey(rawValue: text) {
                    options.returnKey = key
                } else {
                    reader.error(path + "returnKey", "returnKey must be 'default', 'next' or 'done', not '\(text)'")
                }
            }
            if let v = defaultJSON, let text = reader.string(v, at: path + "default", what: "a text field's default") {
                if let maxLength = options.maxLength, text.count > maxLength {
                    reader.error(path + "default", "the default is \(text.count) characters; maxLength is \(maxLength)")
                }
                if let minLength = options.minLength, !text.isEmpty, text.count < minLength {
                    reader.error(path + "default", "the default is \(text.count) characters; minLength is \(minLength)")
                }
                defaultValue = .text(text)
            }
            kind = .text(options)
        case "duration":
            var options = DurationOptions()
            if let v = object["components"], let list = reader.array(v, at: path + "components", what: "components") {
                var itemsOK = true
                for (at, item) in list.enumerated() where DurationComponent(rawValue: item.stringValue ?? "") == nil {
                    itemsOK = false
                    reader.error(path + "components" + at, "a component is \"hours\", \"minutes\" or \"seconds\", not \(item)")
                }
                let names = list.compactMap(\.stringValue)
                if names == ["hours", "minutes"] {
                    options.components = [.hours, .minutes]
                } else if names == ["hours", "minutes", "seconds"] {
                    options.components = [.hours, .minutes, .seconds]
                } else if itemsOK {
                    reader.error(
                        path + "components",
                        "components must be [\"hours\",\"minutes\"] or [\"hours\",\"minutes\",\"seconds\"]")
                }
            }
            if let v = object["minuteInterval"],
                let n = reader.integer(v, at: path + "minuteInterval", what: "minuteInterval", in: 1...30)
            {
                if 60 % n == 0 {
                    options.minuteInterval = n
                } else {
                    reader.error(path + "minuteInterval", "minuteInterval \(n) does not divide 60 (use 1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30)")
                }
            }
            var rangeOK = true
            if let v = object["min"] {
                if let n = reader.integer(v, at: path + "min", what: "min", in: 0...86_399) { options.min = n } else { rangeOK = false }
            }
            if let v = object["max"] {
                if let n = reader.integer(v, at: path + "max", what: "max", in: 0...86_399) { options.max = n } else { rangeOK = false }
            }
            if rangeOK {
                if options.min > options.max {
                    let minText = object["min"] != nil ? "min \(options.min)" : "the default min \(options.min)"
                    let maxText = object["max"] != nil ? "max \(options.max)" : "the default max \(options.max)"
                    reader.error(path + (object["min"] != nil ? "min" : "max"), "\(minText) is greater than \(maxText)")
                } else if options.snappedMin > options.clampedMax || options.representable(atLeast: options.min) == nil {
                    reader.error(
                        path + (object["min"] != nil ? "min" : "max"),
                        "no value from min \(options.min) to max \(options.max) can be shown by the wheels (minuteInterval \(options.minuteInterval))")
                }
            }
            if let v = defaultJSON {
                if let n = reader.integer(v, at: path + "default", what: "a duration's default (seconds)", in: 0...86_399) {
                    if rangeOK && (n < options.min || n > options.max) {
                        reader.error(path + "default", "the default \(n) is outside min \(options.min) to max \(options.max)")
                    } else if !options.isRepresentable(n) {
                        let minutes = (n % 3600) / 60
                        let reason =
                            minutes % options.minuteInterval != 0
                            ? "its minutes (\(minutes)) are not a multiple of minuteInterval \(options.minuteInterval)"
                            : "it has seconds (\(n % 60)) and there is no seconds wheel"
                        reader.error(path + "default", "the default \(n) cannot be shown by the wheels: \(reason)")
                    }
                    defaultValue = .duration(n)
                }
            }
            kind = .duration(options)
        case "choice":
            var options = ChoiceOptions(options: [])
            var optionIDs = Set<String>()
            if let v = object["options"], let list = reader.array(v, at: path + "options", what: "options") {
                if list.isEmpty { reader.error(path + "options", "a choice needs at least one option") }
                if list.count > Flow.maxOptions { reader.error(path + "options", "a choice has at most \(Flow.maxOptions) options") }
                for (at, entry) in list.prefix(Flow.maxOptions).enumerated() {
                    let optionPath = path + "options" + at
                    guard let option = reader.object(entry, at: optionPath, what: "an option") else { continue }
                    reader.checkKeys(option, at: optionPath, allowed: ["id", "label"], required: ["id"], what: "an option")
                    guard let optionID = option["id"].flatMap({ identifier($0, at: optionPath + "id", what: "the option id") })
                    else { continue }
                    let label = option["label"].flatMap { localized($0, at: optionPath + "label", what: "label") }
                    guard optionIDs.insert(optionID).inserted else {
                        reader.error(optionPath + "id", "duplicate option id '\(optionID)'")
                        continue
                    }
                    options.options.append(.init(id: optionID, label: label))
                }
            } else if object["options"] == nil {
                reader.error(path, "a choice field is missing the required key 'options'")
            }
            if let v = defaultJSON, let text = reader.string(v, at: path + "default", what: "a choice's default") {
                if let at = options.index(of: text) {
                    defaultValue = .choice(at)
                } else {
                    reader.error(
                        path + "default",
                        "the default '\(text)' is not an option (options: \(options.options.map(\.id).joined(separator: ", ")))")
                }
            }
            kind = .choice(options)
        case "toggle":
            if let v = defaultJSON, let b = reader.bool(v, at: path + "default", what: "a toggle's default") {
                defaultValue = .toggle(b)
            }
            kind = .toggle
        default:
            break
        }
        guard let id, let kind else { return nil }
        return Field(
            id: id, page: page, kind: kind, label: label, defaultValue: defaultValue, required: required,
            visibleIf: visibleIf, enabledIf: enabledIf, requiredIf: requiredIf, accessory: accessory)
    }

    // MARK: Conditions

    static let comparisonKeys = ["equals", "notEquals", "in", "greaterThan", "lessThan", "filled"]

    mutating func condition(_ value: JSONValue, at path: JSONPath, scope: Scope) -> Condition? {
        guard let object = reader.object(value, at: path, what: "a condition") else { return nil }
        if object["all"] != nil || object["any"] != nil {
            let key = object["all"] != nil ? "all" : "any"
            reader.checkKeys(object, at: path, allowed: [key], what: "an '\(key)' condition")
            guard let list = reader.array(object[key]!, at: path + key, what: "'\(key)'") else { return nil }
            if list.isEmpty {
                reader.error(path + key, "'\(key)' needs at least one condition")
                return nil
            }
            var parts: [Condition] = []
            for (at, part) in list.enumerated() {
                if let condition = condition(part, at: path + key + at, scope: scope) { parts.append(condition) }
            }
            guard parts.count == list.count else { return nil }
            return key == "all" ? .all(parts) : .any(parts)
        }
        if let inner = object["not"] {
            reader.checkKeys(object, at: path, allowed: ["not"], what: "a 'not' condition")
            return condition(inner, at: path + "not", scope: scope).map(Condition.not)
        }
        guard let fieldValue = object["field"] else {
            let before = reader.problems.count
            reader.checkKeys(object, at: path, allowed: ["field", "all", "any", "not"] + Self.comparisonKeys, what: "a condition")
            if reader.problems.count == before {
                reader.error(
                    path, "a condition needs 'field' with one of \(Self.comparisonKeys.joined(separator: ", ")), or 'all', 'any' or 'not'")
            }
            return nil
        }
        reader.checkKeys(object, at: path, allowed: ["field"] + Self.comparisonKeys, what: "a condition")
        let operators = object.keys.filter { Self.comparisonKeys.contains($0) }
        guard operators.count == 1, let op = operators.first else {
            reader.error(
                path,
                operators.isEmpty
                    ? "a condition on a field needs one of \(Self.comparisonKeys.joined(separator: ", "))"
                    : "a condition has one comparison, not \(operators.joined(separator: " and "))")
            return nil
        }
        guard let name = reader.string(fieldValue, at: path + "field", what: "'field'") else { return nil }
        guard let declaredField = declared[name] else {
            var message = "the condition names the unknown field '\(name)'"
            // Hints cost a comparison with every field: give them for the first few only.
            suggestionsGiven += 1
            if suggestionsGiven <= 20 {
                if sortedFieldIDs == nil { sortedFieldIDs = declared.keys.sorted() }
                if let near = DocumentReader.closest(to: name, in: sortedFieldIDs!) { message += "; did you mean '\(near)'?" }
            }
            reader.error(path + "field", message)
            return nil
        }
        if name == scope.field {
            reader.error(path + "field", "the condition names its own field '\(name)'; a field's conditions may name earlier fields only")
            return nil
        }
        guard declaredField.ordinal < scope.ordinal else {
            reader.error(
                path + "field",
                "the condition looks ahead: '\(name)' is not answered before this point (\(scope.what) may name fields of earlier pages\(scope.what.hasPrefix("a field") ? " or earlier on its own page" : " only"))")
            return nil
        }
        guard let (index, field) = built[name] else { return nil }  // that field had problems of its own
        let operand = object[op]!
        let operandPath = path + op
        switch op {
        case "filled":
            guard let filled = reader.bool(operand, at: operandPath, what: "'filled'") else { return nil }
            return .filled(field: index, filled)
        case "greaterThan", "lessThan":
            guard case .duration = field.kind else {
                reader.error(operandPath, "'\(op)' compares durations; '\(name)' is a \(field.kind.name) field")
                return nil
            }
            guard let bound = reader.number(operand, at: operandPath, what: "'\(op)'", in: -1e9...1e9) else { return nil }
            return op == "greaterThan" ? .greaterThan(field: index, bound) : .lessThan(field: index, bound)
        case "in":
            guard let list = reader.array(operand, at: operandPath, what: "'in'") else { return nil }
            if list.isEmpty {
                reader.error(operandPath, "'in' needs at least one value")
                return nil
            }
            var values: [FieldValue] = []
            for (at, item) in list.enumerated() {
                if let value = comparable(item, at: operandPath + at, field: field, name: name) { values.append(value) }
            }
            return values.count == list.count ? .oneOf(field: index, values) : nil
        default:
            guard let value = comparable(operand, at: operandPath, field: field, name: name) else { return nil }
            return op == "equals" ? .equals(field: index, value) : .notEquals(field: index, value)
        }
    }

    /// A value a condition compares a field with: of the field's kind (an option id for choices).
    mutating func comparable(_ value: JSONValue, at path: JSONPath, field: Field, name: String) -> FieldValue? {
        if case .null = value {
            reader.error(path, "compare with null through {\"field\": \"\(name)\", \"filled\": false}")
            return nil
        }
        if let converted = field.value(from: value) { return converted }
        switch field.kind {
        case .choice(let options):
            if case .string(let text) = value {
                reader.error(path, "'\(text)' is not an option of '\(name)' (options: \(options.options.map(\.id).joined(separator: ", ")))")
            } else {
                reader.error(path, "'\(name)' is a choice; compare it with an option id, not \(value.typeName)")
            }
        case .text: reader.error(path, "'\(name)' is a text field; compare it with a string, not \(value.typeName)")
        case .duration: reader.error(path, "'\(name)' is a duration; compare it with a whole number of seconds, not \(value)")
        case .toggle: reader.error(path, "'\(name)' is a toggle; compare it with true or false, not \(value.typeName)")
        }
        return nil
    }
}
