/// What fronts render: localized titles, labels, display strings, enabled flags and error texts,
/// so that no front formats or decides anything itself.
///
/// Built per page on demand (a front builds the current page and its neighbours only, as a page
/// view controller's data source does), plus the chrome around pages.
public struct PagePresentation: Sendable, Hashable {
    public var id: String
    /// The page's index among visible pages.
    public var index: Int
    public var title: String?
    public var body: String?
    /// Visible fields, in order.
    public var fields: [FieldPresentation]
}

public struct FieldPresentation: Sendable, Hashable {
    /// A field's kind, as the flow names it (CONTRACT §1).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case text, duration, choice, toggle

        init(_ kind: Field.Kind) {
            switch kind {
            case .text: self = .text
            case .duration: self = .duration
            case .choice: self = .choice
            case .toggle: self = .toggle
            }
        }
    }

    public var id: String
    public var kind: Kind
    public var label: String
    /// The value as shown: "25 min", "1 h 05 min", "1 min 30 s" (`Strings.duration`), an option's label, "On"; empty when unset.
    public var display: String
    /// Shown when there is no value ("Not set" for pickers, the flow's placeholder for text).
    public var placeholder: String
    public var enabled: Bool
    public var focused: Bool
    public var required: Bool
    /// A revealed error, as text ("Required", "Use at most 40 characters").
    public var error: String?
    public var errorCode: ValidationCode?
    /// For toggles: whether it is on.
    public var isOn: Bool?
    /// What assistive technology reads after the field's name: its revealed error, else
    /// "Required" for a required field (GTK 4.8's AT-SPI bridge has no required state), else nil.
    public var accessibleDescription: String? = nil
}

public struct ToolbarItemPresentation: Sendable, Hashable {
    public var item: AccessoryItem
    /// Empty for spacers.
    public var title: String
    public var enabled: Bool
}

public struct WheelPresentation: Sendable, Hashable {
    public var component: DurationComponent
    /// The unit under the wheel ("hours", "min", "sec").
    public var title: String
    /// The values the wheel shows, top to bottom (minutes in steps of `minuteInterval`).
    public var values: [Int]
    /// The index in `values` of the draft's value.
    public var selectedIndex: Int
    public var isSelectedWheel: Bool
    /// The selected value in words, for the wheel's accessible value text ("25 minutes", "1 hour",
    /// "25分").
    public var valueText: String
}

public struct OptionPresentation: Sendable, Hashable {
    public var id: String
    public var label: String
    public var selected: Bool
}

/// The open input view: what the keyboard area shows.
public struct InputPresentation: Sendable, Hashable {
    public var field: String
    public var view: InputView
    public var label: String
    /// The draft as it would be displayed once committed (pickers).
    public var draftDisplay: String?
    public var wheels: [WheelPresentation]
    public var options: [OptionPresentation]
    public var toolbar: [ToolbarItemPresentation]
    /// The title of the keyboard's Return key ("Next" or "Done").
    public var returnKeyTitle: String?
}

public struct ButtonPresentation: Sendable, Hashable {
    public var button: TapTarget.Button
    public var title: String
    public var enabled: Bool
}

/// Everything around the pages: title, indicator, buttons, progress, the input view.
public struct ChromePresentation: Sendable, Hashable {
    public var title: String?
    public var indicatorCount: Int
    public var indicatorCurrent: Int
    public var indicatorHidden: Bool
    public var indicatorStyle: Paging.IndicatorStyle
    /// "Page 2 of 4", for the indicator's accessible label (and the `numbers` style).
    public var indicatorLabel: String
    /// The current page named for assistive technology: its title and where it stands ("About
    /// you — page 2 of 5"; "Page 2 of 5" for a page without a title). Fronts give it to the
    /// window title, the pager's accessible label and announcements, so a page change is heard.
    public var pageName: String
    public var buttons: [ButtonPresentation]
    /// Fraction of the flow behind the user (0 on the first page, 1 on the last), for a progress bar.
    public var progress: Double
    public var input: InputPresentation?
    public var completed: Outcome?
}

extension Session {
    /// The page at a visible index, localized for `locale`; nil when no page has that index.
    public func presentPage(at index: Int) -> PagePresentation? {
        guard index >= 0 && index < pageCount else { return nil }
        let page = page(atVisible: index)
        let definition = flow.pages[page]
        var fields: [FieldPresentation] = []
        for field in definition.fieldRange where answers.fieldVisible[field] {
            fields.append(presentField(field))
        }
        return PagePresentation(
            id: definition.id, index: index, title: definition.title?.resolve(locale), body: definition.body?.resolve(locale),
            fields: fields)
    }

    /// The current page and its neighbours (wrapping when the flow wraps): what a pager builds.
    public func presentNeighbourhood() -> [PagePresentation] {
        let index = currentIndex
        var indices = [index]
        let count = pageCount
        let wrap = flow.paging.wrap
        if count > 1 && (wrap || index > 0) { indices.insert(normalize(Double(index - 1)), at: 0) }
        if count > 1 && (wrap || index < count - 1) { indices.append(normalize(Double(index + 1))) }
        var seen = Set<Int>()
        return indices.filter { seen.insert($0).inserted }.compactMap { presentPage(at: $0) }
    }

    /// How field `field` (a flow index) is shown now, visible or not.
    public func presentField(_ field: Int) -> FieldPresentation {
        let definition = flow.fields[field]
        let strings = Strings(locale: locale)
        let value = answers.values[field]
        var placeholder = ""
        var isOn: Bool? = nil
        switch definition.kind {
        case .text(let options): placeholder = options.placeholder?.resolve(locale) ?? ""
        case .duration, .choice: placeholder = strings.notSet
        case .toggle: isOn = value == .toggle(true)
        }
        let code = answers.touched[field] ? answers.fieldError[field] : nil
        return FieldPresentation(
            id: definition.id, kind: FieldPresentation.Kind(definition.kind), label: definition.label?.resolve(locale) ?? definition.id,
            display: display(value, of: definition), placeholder: placeholder, enabled: answers.fieldEnabled[field],
            focused: focusChain.field == field, required: answers.fieldRequired[field],
            error: code.map { errorText($0, field: field) }, errorCode: code, isOn: isOn,
            accessibleDescription: code.map { errorText($0, field: field) }
                ?? (answers.fieldRequired[field] ? strings.requiredField : nil))
    }

    /// A value as fronts show it, in the session's locale.
    public func display(_ value: FieldValue, of field: Field) -> String {
        Self.display(value, of: field, locale: locale)
    }

    /// A finished result's values as a summary shows them (the app's main window lists the
    /// settings so): each field of `flow` that `values` holds, in flow order, with its label and
    /// its value as the walkthrough shows it in `locale` ("—" for none).
    public static func resultLines(of flow: Flow, values: JSONObject, locale: String) -> [(label: String, value: String)] {
        flow.fields.compactMap { field in
            guard let json = values[field.id], let value = field.value(from: json) else { return nil }
            let shown = display(value, of: field, locale: locale)
            return (field.label?.resolve(locale) ?? field.id, shown.isEmpty ? "—" : shown)
        }
    }

    /// A value as fronts show it, in `locale`.
    public static func display(_ value: FieldValue, of field: Field, locale: String) -> String {
        let strings = Strings(locale: locale)
        switch (field.kind, value) {
        case (_, .null): return ""
        case (.text, .text(let text)): return text
        case (.duration(let options), .duration(let seconds)): return strings.duration(seconds, withSeconds: options.hasSeconds)
        case (.choice(let options), .choice(let index)):
            guard options.options.indices.contains(index) else { return "" }
            let option = options.options[index]
            return option.label?.resolve(locale) ?? option.id
        case (.toggle, .toggle(let on)): return on ? strings.on : strings.off
        default: return ""
        }
    }

    /// The text of field `index`'s error `code`, as the field shows it under itself: a host's
    /// error shows the host's message, else its code.
    func errorText(_ code: ValidationCode, field index: Int) -> String {
        if let host = answers.hostErrors[index], host.code == code { return host.message?.resolve(locale) ?? code.rawValue }
        let field = flow.fields[index]
        let strings = Strings(locale: locale)
        switch (code, field.kind) {
        case (.required, .toggle): return strings.mustBeOn
        case (.required, _): return strings.required
        case (.minLength, .text(let options)): return strings.atLeastCharacters(options.minLength ?? 0)
        case (.maxLength, .text(let options)): return strings.atMostCharacters(options.maxLength ?? 0)
        case (.min, .duration(let options)): return strings.atLeast(strings.duration(options.min, withSeconds: options.hasSeconds))
        case (.max, .duration(let options)): return strings.atMost(strings.duration(options.max, withSeconds: options.hasSeconds))
        case (.required, _), (.minLength, _), (.maxLength, _), (.min, _), (.max, _): return strings.required
        default: return code.rawValue
        }
    }

    public var chrome: ChromePresentation {
        let strings = Strings(locale: locale)
        let enabled = buttons
        let count = pageCount
        let index = currentIndex
        return ChromePresentation(
            title: flow.title?.resolve(locale), indicatorCount: count, indicatorCurrent: index, indicatorHidden: indicatorHidden,
            indicatorStyle: flow.paging.indicatorStyle, indicatorLabel: strings.pageOf(index + 1, count),
            pageName: strings.pageName(
                index < count ? flow.pages[page(atVisible: index)].title?.resolve(locale) : nil, index + 1, count),
            buttons: [
                ButtonPresentation(button: .back, title: strings.back, enabled: enabled.back),
                ButtonPresentation(button: .next, title: strings.next, enabled: enabled.next),
                ButtonPresentation(button: .skip, title: strings.skip, enabled: enabled.skip),
                ButtonPresentation(button: .finish, title: strings.finish, enabled: enabled.finish),
                ButtonPresentation(button: .cancel, title: strings.cancel, enabled: completion == nil),
            ],
            progress: count > 1 ? Double(index) / Double(count - 1) : 1,
            input: presentInput(), completed: completion?.outcome)
    }

    func presentInput() -> InputPresentation? {
        guard let editing = focusChain.input else { return nil }
        let field = editing.field
        let definition = flow.fields[field]
        let strings = Strings(locale: locale)
        var wheels: [WheelPresentation] = []
        var options: [OptionPresentation] = []
        var draftDisplay: String? = nil
        var returnKeyTitle: String? = nil
        switch definition.kind {
        case .duration(let duration):
            if case .duration(let seconds) = editing.draft {
                draftDisplay = display(editing.draft, of: definition)
                for (at, component) in duration.components.enumerated() {
                    let values = duration.reachable(component)
                    let current = duration.wheel(component, of: seconds)
                    let selected = values.firstIndex(of: current) ?? 0
                    wheels.append(
                        WheelPresentation(
                            component: component, title: strings.wheelTitle(component), values: values,
                            selectedIndex: selected, isSelectedWheel: at == editing.selectedWheel,
                            valueText: strings.wheelValue(component, values.isEmpty ? 0 : values[selected])))
                }
            }
        case .choice(let choice):
            draftDisplay = display(editing.draft, of: definition)
            for (at, option) in choice.options.enumerated() {
                options.append(
                    OptionPresentation(
                        id: option.id, label: option.label?.resolve(locale) ?? option.id, selected: editing.draft == .choice(at)))
            }
        case .text:
            returnKeyTitle = effectiveReturnKey(field) == .next ? strings.next : strings.done
        case .toggle:
            break
        }
        return InputPresentation(
            field: definition.id, view: view(of: field), label: definition.label?.resolve(locale) ?? definition.id,
            draftDisplay: draftDisplay, wheels: wheels, options: options,
            toolbar: accessoryItems(of: field).map { item in
                ToolbarItemPresentation(item: item, title: strings.accessoryTitle(item), enabled: isAccessoryEnabled(item, field: field))
            },
            returnKeyTitle: returnKeyTitle)
    }
}

/// Quire's own strings, in English and Japanese (other locales fall back to English).
public struct Strings: Sendable {
    public let japanese: Bool

    public init(locale: String) {
        let language = locale.split(separator: "-").first.map { $0.lowercased() } ?? ""
        japanese = language == "ja"
    }

    func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    public var notSet: String { japanese ? "未設定" : "Not set" }
    public var on: String { japanese ? "オン" : "On" }
    public var off: String { japanese ? "オフ" : "Off" }
    public var required: String { japanese ? "入力してください" : "Required" }
    /// A required field, as assistive technology describes it.
    public var requiredField: String { japanese ? "必須" : "Required" }
    public var mustBeOn: String { japanese ? "オンにしてください" : "Must be turned on" }
    public func atLeastCharacters(_ count: Int) -> String { japanese ? "\(count)文字以上で入力してください" : "Use at least \(count) characters" }
    public func atMostCharacters(_ count: Int) -> String { japanese ? "\(count)文字以内で入力してください" : "Use at most \(count) characters" }
    public func atLeast(_ value: String) -> String { japanese ? "\(value)以上にしてください" : "At least \(value)" }
    public func atMost(_ value: String) -> String { japanese ? "\(value)以下にしてください" : "At most \(value)" }
    public var back: String { japanese ? "戻る" : "Back" }
    public var next: String { japanese ? "次へ" : "Next" }
    public var skip: String { japanese ? "スキップ" : "Skip" }
    public var finish: String { japanese ? "完了" : "Finish" }
    public var cancel: String { japanese ? "キャンセル" : "Cancel" }
    public var done: String { japanese ? "完了" : "Done" }
    public var previous: String { japanese ? "前へ" : "Previous" }
    public func pageOf(_ page: Int, _ count: Int) -> String { japanese ? "\(count)ページ中\(page)ページ目" : "Page \(page) of \(count)" }

    /// A page announced on arrival (CONTRACT §6.4): "About you, page 2 of 5"; "Page 2 of 5"
    /// without a title; "About you、5ページ中2ページ目".
    public func arrivedAt(_ title: String?, _ page: Int, _ count: Int) -> String {
        guard let title, !title.isEmpty else { return pageOf(page, count) }
        return japanese ? "\(title)、\(count)ページ中\(page)ページ目" : "\(title), page \(page) of \(count)"
    }

    /// Two sentences spoken as one: "About you, page 2 of 5. Tell us what to call you.";
    /// "あなたについて、5ページ中2ページ目。お名前を教えてください。".
    public func sentences(_ first: String, _ second: String) -> String { japanese ? first + "。" + second : first + ". " + second }

    public var finished: String { japanese ? "完了しました" : "Finished" }
    public var cancelled: String { japanese ? "キャンセルしました" : "Cancelled" }
    /// An apply the user stopped.
    public var applyStopped: String { japanese ? "中止しました" : "Stopped" }
    /// An apply the host did not answer in time.
    public var applyTimedOut: String { japanese ? "時間内に応答がありませんでした" : "No answer in time" }

    /// A page named for assistive technology: "About you — page 2 of 5"; "Page 2 of 5" without a
    /// title (or with an empty one).
    public func pageName(_ title: String?, _ page: Int, _ count: Int) -> String {
        guard let title, !title.isEmpty else { return pageOf(page, count) }
        return japanese ? "\(title) — \(count)ページ中\(page)ページ目" : "\(title) — page \(page) of \(count)"
    }

    /// A wheel's value in words: "25 minutes", "1 hour", "0 hours", "1 second"; "25分", "1時間", "30秒".
    public func wheelValue(_ component: DurationComponent, _ value: Int) -> String {
        switch component {
        case .hours: japanese ? "\(value)時間" : (value == 1 ? "1 hour" : "\(value) hours")
        case .minutes: japanese ? "\(value)分" : (value == 1 ? "1 minute" : "\(value) minutes")
        case .seconds: japanese ? "\(value)秒" : (value == 1 ? "1 second" : "\(value) seconds")
        }
    }

    public func wheelTitle(_ component: DurationComponent) -> String {
        switch component {
        case .hours: japanese ? "時間" : "hours"
        case .minutes: japanese ? "分" : "min"
        case .seconds: japanese ? "秒" : "sec"
        }
    }

    public func accessoryTitle(_ item: AccessoryItem) -> String {
        switch item {
        case .previous: previous
        case .next: next
        case .done: done
        case .cancel: cancel
        case .flexibleSpace, .fixedSpace: ""
        }
    }
}
