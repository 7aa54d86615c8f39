import GtkBindings
import CGtk
import CGtkShim
import QuireCore

/// A page's GtkBuilder layout, loaded and checked: the builder that made its widgets, its root,
/// and the widgets bound to the page and its fields. The core decides whether the file may be
/// read and what each id and widget may be bound to (`PageLayout`); this only builds the file
/// with a scope that refuses signal handlers and types outside the core's list, and tells the
/// core what each object with an id is. Before any of that, the bytes are checked against the
/// core's `LayoutPolicy`, the same check `quire check` makes.
@MainActor
final class LoadedLayout {
    /// What a field's widgets in the layout are.
    struct Parts {
        var input: UnsafeMutableRawPointer
        var role: PageLayout.WidgetRole
        var label: UnsafeMutableRawPointer?
        var error: UnsafeMutableRawPointer?
    }

    /// Keeps every object of the layout alive while the page shows it.
    private let builder: ObjectRef
    let root: Widget
    let title: Label?
    let body: Label?
    /// By field index.
    let parts: [Int: Parts]

    enum Outcome {
        case loaded(LoadedLayout)
        case failed([LayoutError])
    }

    private init(builder: ObjectRef, root: Widget, title: Label?, body: Label?, parts: [Int: Parts]) {
        self.builder = builder
        self.root = root
        self.title = title
        self.body = body
        self.parts = parts
    }

    /// Loads the layout of page `page` (a flow index) of `flow`; nil when the page has none or the
    /// flow has no folder (it was given as text). Every problem found is listed.
    static func load(page: Int, of flow: Flow) -> Outcome? {
        guard let path = flow.pages[page].layout, let folder = flow.folder else { return nil }
        let file: PageLayout.File
        switch PageLayout.resolve(path, inFolder: folder) {
        case .success(let found): file = found
        case .failure(let problem): return .failed([problem])
        }
        // The core's layout policy, on exactly the bytes GtkBuilder is given: the one `quire check`
        // applies, so nothing it refuses (a file or icon property, an action, a menu, a signal, a
        // class or property off the list, depth and object limits) ever reaches GTK. The scope
        // below still refuses types and handlers, a second guard.
        let refused = LayoutPolicy.problems(in: file.bytes, named: flow.layoutName(path), page: page, of: flow)
        if !refused.isEmpty { return .failed(refused) }
        quire_layout_ensure_types()
        let allowed = PageLayout.allowedTypes.sorted()
        let scope = withCStrings(allowed) { quire_layout_scope_new($0)! }
        defer { g_object_unref(UnsafeMutableRawPointer(scope)) }
        let builder = ObjectRef(UnsafeMutableRawPointer(gtk_builder_new()!), .full)
        gtk_builder_set_scope(OpaquePointer(builder.pointer), scope)
        var error: UnsafeMutablePointer<GError>?
        let built = file.bytes.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                gtk_builder_add_from_string(OpaquePointer(builder.pointer), $0.baseAddress, gssize($0.count), &error)
            }
        }
        if built == 0 {
            defer { g_error_free(error) }
            if let refused = quire_layout_scope_refused_type(scope) {
                return .failed([PageLayout.typeProblem(String(cString: refused)) ?? LayoutError("refused")])
            }
            if let handler = quire_layout_scope_refused_handler(scope) {
                return .failed([PageLayout.signalProblem(String(cString: handler))])
            }
            let message = error.map { String(cString: $0.pointee.message) } ?? "GtkBuilder could not read it"
            return .failed([LayoutError("the layout '\(path)' is not a GtkBuilder file GTK can build: \(message)")])
        }

        var problems: [LayoutError] = []
        var bound: Set<PageLayout.Binding> = []
        var root: UnsafeMutableRawPointer?
        var title: UnsafeMutableRawPointer?
        var body: UnsafeMutableRawPointer?
        var inputs: [Int: (UnsafeMutableRawPointer, PageLayout.WidgetRole)] = [:]
        var labels: [Int: UnsafeMutableRawPointer] = [:]
        var errors: [Int: UnsafeMutableRawPointer] = [:]
        var objects: [(String, UnsafeMutableRawPointer)] = []
        var list = gtk_builder_get_objects(OpaquePointer(builder.pointer))
        let head = list
        while let node = list {
            // (GtkBuilder names objects without an id `___object_N___`.)
            if let object = node.pointee.data, let id = quire_buildable_id(object).map({ String(cString: $0) }),
                !(id.hasPrefix("___object_") && id.hasSuffix("___"))
            {
                objects.append((id, object))
            }
            list = node.pointee.next
        }
        g_slist_free(head)
        // In a stable order (the builder's list is a hash table's), so messages are too.
        objects.sort { $0.0 < $1.0 }
        for (id, object) in objects {
            let binding: PageLayout.Binding
            switch PageLayout.binding(forID: id, page: page, in: flow) {
            case .success(let found): binding = found
            case .failure(let problem):
                problems.append(problem)
                continue
            }
            guard quire_is_a(object, gtk_widget_get_type()) != 0 else {
                problems.append(LayoutError("the object '\(id)' is a \(Borrowed(object).typeName), not a widget"))
                continue
            }
            let role = Self.role(of: object)
            if let problem = PageLayout.widgetProblem(
                id: id, binding: binding, role: role, typeName: Borrowed(object).typeName, in: flow)
            {
                problems.append(problem)
                bound.insert(binding)  // (it is there, of the wrong kind: not missing too)
                continue
            }
            bound.insert(binding)
            switch binding {
            case .root:
                if gtk_widget_get_parent(quire_widget(object)) != nil {
                    problems.append(
                        LayoutError("the widget 'page:root' is inside another widget; it must be a top-level object of the layout"))
                }
                root = object
            case .pageTitle: title = object
            case .pageBody: body = object
            case .input(let field): inputs[field] = (object, role)
            case .label(let field): labels[field] = object
            case .error(let field): errors[field] = object
            }
        }
        problems += PageLayout.missing(bound, page: page, in: flow)
        guard problems.isEmpty, let root else { return .failed(problems) }
        var parts: [Int: Parts] = [:]
        for (field, input) in inputs {
            parts[field] = Parts(input: input.0, role: input.1, label: labels[field], error: errors[field])
        }
        return .loaded(
            LoadedLayout(
                builder: builder, root: Widget(existing: root), title: title.map { Label(existing: $0) },
                body: body.map { Label(existing: $0) }, parts: parts))
    }

    /// What the core calls a widget of this type.
    static func role(of object: UnsafeMutableRawPointer) -> PageLayout.WidgetRole {
        if quire_is_a(object, gtk_entry_get_type()) != 0 || quire_is_a(object, gtk_text_get_type()) != 0 { return .textInput }
        if quire_is_a(object, gtk_switch_get_type()) != 0 || quire_is_a(object, gtk_check_button_get_type()) != 0 { return .toggle }
        if quire_is_a(object, gtk_button_get_type()) != 0 { return .button }
        if quire_is_a(object, gtk_label_get_type()) != 0 { return .label }
        return .other
    }
}

/// Checking every layout of a flow before a window shows it (`quire run`).
@MainActor
public enum LayoutCheck {
    /// Every problem of every page's layout, as `$.pages[N].layout: message`; nil when GTK cannot
    /// be initialized (no display), empty when all layouts load.
    public static func problems(in flow: Flow) -> [String]? {
        guard gtk_init_check() != 0 else { return nil }
        var lines: [String] = []
        for page in flow.pages.indices {
            if case .failed(let problems)? = LoadedLayout.load(page: page, of: flow) {
                lines += problems.map { "$.pages[\(page)].layout: \($0.message)" }
            }
        }
        return lines
    }
}
