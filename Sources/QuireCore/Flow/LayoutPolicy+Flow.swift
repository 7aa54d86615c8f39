/// A checked layout against the flow whose page it lays out: the roles of its objects and the
/// fields they bind (`LayoutPolicy.problems(in:named:page:of:)`).
extension LayoutPolicy {

    /// The role the core's binding rules give an object of `className` (`PageLayout.WidgetRole`).
    public static func role(of className: String) -> PageLayout.WidgetRole {
        switch className {
        case "GtkEntry", "GtkText": .textInput
        case "GtkSwitch", "GtkCheckButton": .toggle
        case "GtkButton": .button
        case "GtkLabel": .label
        default: .other
        }
    }

    /// Every problem of a layout's bytes as the layout of page `page` of `flow`: the policy
    /// (`check`), then the bindings of its ids (`PageLayout.binding`, the widget kinds, the root
    /// at the top level, a widget for every field). Each message starts with `name:line:column: `
    /// (the layout file as named in messages); at most `problemLimit`, then a count of the rest.
    public static func problems(in bytes: [UInt8], named name: String, page: Int, of flow: Flow) -> [LayoutError] {
        problems(checked: check(bytes), in: bytes, named: name, page: page, of: flow)
    }

    /// `problems(in:named:page:of:)` for a layout already `check`ed: a layout that several pages
    /// name is read and checked once, and only its bindings are judged page by page.
    static func problems(checked: Checked, in bytes: [UInt8], named name: String, page: Int, of flow: Flow) -> [LayoutError] {
        var checked = checked
        var missing: [Problem] = []
        // Bindings only for a file that could be read.
        if !(checked.problems.count == 1 && checked.problems[0].message.hasPrefix("not a well-formed layout")) {
            var bound: Set<PageLayout.Binding> = []
            for object in checked.objects {
                guard let id = object.id else { continue }
                let binding: PageLayout.Binding
                switch PageLayout.binding(forID: id, page: page, in: flow) {
                case .success(let found): binding = found
                case .failure(let problem):
                    checked.problems.append(Problem(offset: object.offset, message: problem.message))
                    continue
                }
                guard classes[object.className] != nil else { continue }
                guard classes[object.className]?.isWidget != false else {
                    checked.problems.append(
                        Problem(offset: object.offset, message: "the object '\(id)' is a \(object.className), not a widget"))
                    continue
                }
                bound.insert(binding)
                if let problem = PageLayout.widgetProblem(
                    id: id, binding: binding, role: role(of: object.className), typeName: object.className, in: flow)
                {
                    checked.problems.append(Problem(offset: object.offset, message: problem.message))
                    continue
                }
                if binding == .root, !object.topLevel {
                    checked.problems.append(
                        Problem(
                            offset: object.offset,
                            message: "the widget 'page:root' is inside another widget; it must be a top-level object of the layout"))
                }
            }
            // What the layout lacks comes last, placed at its first object (or its start).
            let root = checked.objects.first(where: \.topLevel)?.offset ?? 0
            missing = PageLayout.missing(bound, page: page, in: flow).map { Problem(offset: root, message: $0.message) }
        }
        let ordered =
            checked.problems.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(\.element)
            + missing
        let listed = ordered.prefix(problemLimit)
        let positions = SourcePosition.positions(of: listed.map(\.offset), in: bytes)
        var errors = listed.map { LayoutError("\(name):\(positions[$0.offset]!): \($0.message)") }
        if ordered.count > problemLimit {
            errors.append(
                LayoutError("\(name): … and \(ordered.count - problemLimit) more problems (a layout lists its first \(problemLimit))"))
        }
        return errors
    }
}

extension Substring {
    var trimmingSpaces: String {
        var text = self
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}

extension Flow {
    /// The name a page's layout has in messages: its path from the flow's folder, joined to the
    /// folder (`data/flows/layouts/profile.ui`), so it can be opened from where Quire was run.
    public func layoutName(_ path: String) -> String {
        guard let folder, folder != "." else { return path }
        return folder == "/" ? "/" + path : folder + "/" + path
    }

    /// Every problem with the page layouts of a flow loaded from a file: each layout is read
    /// again from the flow's folder (`PageLayout.resolve`) and checked (`LayoutPolicy.problems`).
    /// Empty for a flow with no folder (given as text: its layouts are not used).
    public func layoutProblems() -> [(page: Int, problem: LayoutError)] {
        guard let folder else { return [] }
        var found: [(Int, LayoutError)] = []
        // Each layout file is read and checked once, however many pages name it.
        var read: [String: Result<(bytes: [UInt8], checked: LayoutPolicy.Checked), LayoutError>] = [:]
        for (index, page) in pages.enumerated() {
            guard let path = page.layout else { continue }
            if read[path] == nil {
                read[path] = PageLayout.resolve(path, inFolder: folder).map { ($0.bytes, LayoutPolicy.check($0.bytes)) }
            }
            switch read[path]! {
            case .failure(let problem): found.append((index, problem))
            case .success(let file):
                for problem in LayoutPolicy.problems(checked: file.checked, in: file.bytes, named: layoutName(path), page: index, of: self)
                {
                    found.append((index, problem))
                }
            }
        }
        return found
    }

    /// `layoutProblems` as diagnostics of the flow file whose text is `bytes`: each at its page's
    /// `layout` key (`file:line:column: $.pages[N].layout: LAYOUT:line:column: message`).
    public func layoutDiagnostics(file: String, bytes: [UInt8]) -> [Diagnostic] {
        let problems = layoutProblems()
        guard !problems.isEmpty else { return [] }
        guard (try? DocumentReader.parse(file: file, bytes: bytes)) != nil else {
            return problems.map { Diagnostic.whole(file: file, message: "$.pages[\($0.page)].layout: \($0.problem.message)") }
        }
        var reader = DocumentReader(file: file, bytes: bytes)
        for (page, problem) in problems { reader.error(.root + "pages" + page + "layout", problem.message) }
        return reader.diagnostics()
    }
}
