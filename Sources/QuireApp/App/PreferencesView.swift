import GtkBindings
import QuireGtk
import CGtk
import CGtkShim
import QuireCore

/// The preferences window of the main window (`app.preferences`, Ctrl+,): the walkthrough's
/// duration settings — the demo's focus time — each edited with a spin button per wheel of its
/// picker (hours, minutes in steps of its `minuteInterval`, seconds when it has them). A value is
/// put within the field's `min`/`max` by the core's rule (`DurationOptions.snap`, the picker's),
/// shown as it will be kept, and applied at once (saved by the app, the timer told).
///
/// The other settings (a name, a language, a switch) are changed by running the walkthrough
/// again, which checks them as it does the first time; Cancel there keeps them as they were.
@MainActor
final class PreferencesView {
    let window: Window
    private(set) var rows: [Row] = []
    /// A setting changed: the field's id and its new value (seconds).
    var onChange: ((String, Int) -> Void)?

    @MainActor
    final class Row {
        let field: Field
        let options: DurationOptions
        /// The wheels' spin buttons, in the field's component order.
        let spins: [(component: DurationComponent, button: SpinButton)]
        fileprivate var handlers: [SignalHandler] = []

        init(field: Field, options: DurationOptions, spins: [(component: DurationComponent, button: SpinButton)]) {
            self.field = field
            self.options = options
            self.spins = spins
        }

        /// The seconds the spin buttons show now.
        var shownSeconds: Int {
            spins.reduce(0) { total, spin in
                let value = Int(gtk_spin_button_get_value_as_int(OpaquePointer(spin.button.widget)))
                switch spin.component {
                case .hours: return total + value * 3600
                case .minutes: return total + value * 60
                case .seconds: return total + value
                }
            }
        }

        func show(_ seconds: Int) {
            for (at, spin) in spins.enumerated() {
                let value = Double(options.wheel(spin.component, of: seconds))
                if gtk_spin_button_get_value(OpaquePointer(spin.button.widget)) != value {
                    spin.button.withBlocked(handlers[at]) { gtk_spin_button_set_value(OpaquePointer(spin.button.widget), value) }
                }
            }
        }

        /// Sets a wheel as a user would (tests).
        func set(_ component: DurationComponent, to value: Int) {
            guard let spin = spins.first(where: { $0.component == component }) else { return }
            gtk_spin_button_set_value(OpaquePointer(spin.button.widget), Double(value))
        }
    }

    /// `values` are the settings now; every duration field that has a value gets a row.
    init(flow: Flow, locale: String, values: JSONObject, parent: UnsafeMutablePointer<GtkWindow>?) {
        let strings = AppStrings(locale: locale)
        let words = Strings(locale: locale)
        window = Window(new: gtk_window_new())
        let gtkWindow = quire_window(window.pointer)
        gtk_window_set_title(gtkWindow, strings.preferences)
        gtk_window_set_modal(gtkWindow, 1)
        if let parent {
            gtk_window_set_transient_for(gtkWindow, parent)
            // The app's shortcuts (Ctrl+Q, Ctrl+?) work here too; Escape and Ctrl+W close it.
            gtk_window_set_application(gtkWindow, gtk_window_get_application(parent))
        }
        if let gtkWindow { AppChrome.closesWithKeys(gtkWindow) }
        gtk_window_set_default_size(gtkWindow, 360, -1)
        gtk_window_set_titlebar(gtkWindow, gtk_header_bar_new())
        let content = Box(GTK_ORIENTATION_VERTICAL, spacing: 12)
        content.addCSSClass("quire-preferences")
        content.setMargins(top: 18, bottom: 18, start: 18, end: 18)
        for field in flow.fields {
            guard case .duration(let options) = field.kind, case .number(let number)? = values[field.id] else { continue }
            let line = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
            let title = field.label?.resolve(locale) ?? field.id
            let label = Label(title)
            label.hexpand = true
            label.setXAlign(0)
            line.append(label)
            var spins: [(component: DurationComponent, button: SpinButton)] = []
            for component in options.components {
                let (upper, step): (Double, Double) =
                    switch component {
                    case .hours: (23, 1)
                    case .minutes: (Double(60 - options.minuteInterval), Double(options.minuteInterval))
                    case .seconds: (59, 1)
                    }
                let spin = SpinButton(new: gtk_spin_button_new_with_range(0, upper, step))
                gtk_spin_button_set_snap_to_ticks(OpaquePointer(spin.widget), 1)
                gtk_spin_button_set_numeric(OpaquePointer(spin.widget), 1)
                gtk_spin_button_set_wrap(OpaquePointer(spin.widget), 0)
                let unit = words.wheelTitle(component)
                spin.setAccessibleLabel("\(title), \(unit)")
                line.append(spin)
                let unitLabel = Label(unit)
                unitLabel.addCSSClass("dim-label")
                line.append(unitLabel)
                spins.append((component, spin))
            }
            content.append(line)
            let row = Row(field: field, options: options, spins: spins)
            for spin in spins {
                row.handlers.append(
                    spin.button.onValueChanged { [weak self, weak row] in
                        guard let self, let row else { return }
                        self.changed(row)
                    })
            }
            row.show(options.snap(Int(number)))
            rows.append(row)
        }
        if rows.isEmpty {
            let none = Label(strings.noPreferences)
            none.setWrap()
            content.append(none)
        }
        let hint = Label(strings.otherSettingsHint)
        hint.addCSSClass("dim-label")
        hint.setWrap()
        hint.setXAlign(0)
        hint.setMaxWidthChars(40)
        content.append(hint)
        gtk_window_set_child(gtkWindow, content.widget)
    }

    func present() { gtk_window_present(quire_window(window.pointer)) }
    func close() { gtk_window_close(quire_window(window.pointer)) }

    func row(_ field: String) -> Row? { rows.first { $0.field.id == field } }

    /// A wheel moved: the value is kept within the field's bounds as its picker would keep it,
    /// shown so, and passed on.
    private func changed(_ row: Row) {
        let value = row.options.snap(row.shownSeconds)
        if value != row.shownSeconds {
            // Not from inside the spin button's own change: it would put its value back after.
            pendingShow = MainLoop.idle { [weak row] in row?.show(value) }
        }
        onChange?(row.field.id, value)
    }

    private var pendingShow: MainLoop.IdleCall?
}
