import GtkBindings
import QuireGtk
import CAdw
import CGtk
import CGtkShim
import QuireCore

/// The preferences window of the main window (`app.preferences`, Ctrl+,), an
/// AdwPreferencesWindow (Escape and Ctrl+W close it; no search, there are few rows): the walkthrough's
/// duration settings — the demo's focus time — each a group titled with its label, edited with a
/// row and spin button per wheel of its picker (hours, minutes in steps of its `minuteInterval`, seconds when it has them). A value is
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
        window = Window(new: adw_preferences_window_new())
        let gtkWindow = quire_window(window.pointer)
        gtk_window_set_title(gtkWindow, strings.preferences)
        gtk_window_set_modal(gtkWindow, 1)
        if let parent {
            gtk_window_set_transient_for(gtkWindow, parent)
            // The app's shortcuts (Ctrl+Q, Ctrl+?) work here too.
            gtk_window_set_application(gtkWindow, gtk_window_get_application(parent))
        }
        gtk_window_set_default_size(gtkWindow, 480, 560)
        let preferences: UnsafeMutablePointer<AdwPreferencesWindow> = adwaita(window.widget)
        adw_preferences_window_set_search_enabled(preferences, 0)
        let page = Widget(new: adw_preferences_page_new())
        let group = Widget(new: adw_preferences_group_new())
        group.addCSSClass("quire-preferences")
        adw_preferences_group_set_description(adwaita(group.widget), strings.otherSettingsHint)
        adw_preferences_page_add(adwaita(page.widget), adwaita(group.widget))
        adw_preferences_window_add(preferences, adwaita(page.widget))
        for field in flow.fields {
            guard case .duration(let options) = field.kind, case .number(let number)? = values[field.id] else { continue }
            // One group per setting, titled with its label, and one AdwActionRow per wheel: the
            // wheel's unit as the title, its spin button at the end. (Three spin buttons in one
            // row left its title a few pixels, wrapped a letter a line, and no room at 360 px.)
            let title = field.label?.resolve(locale) ?? field.id
            let setting = Widget(new: adw_preferences_group_new())
            adw_preferences_group_set_title(adwaita(setting.widget), title)
            adw_preferences_page_add(adwaita(page.widget), adwaita(setting.widget))
            var spins: [(component: DurationComponent, button: SpinButton)] = []
            for component in options.components {
                // The values the walkthrough's wheel offers (`DurationOptions.reachable`).
                let offered = options.reachable(component)
                let spin = SpinButton(
                    new: gtk_spin_button_new_with_range(
                        Double(offered.first ?? 0), Double(offered.last ?? 0), Double(options.wheelStep(component))))
                gtk_spin_button_set_snap_to_ticks(OpaquePointer(spin.widget), 1)
                gtk_spin_button_set_numeric(OpaquePointer(spin.widget), 1)
                gtk_spin_button_set_wrap(OpaquePointer(spin.widget), 0)
                let unit = words.wheelTitle(component)
                spin.setAccessibleLabel("\(title), \(unit)")
                spin.valign = GTK_ALIGN_CENTER
                let line = Widget(new: adw_action_row_new())
                adw_preferences_row_set_title(adwaita(line.widget), unit)
                adw_action_row_add_suffix(adwaita(line.widget), spin.widget)
                adw_action_row_set_activatable_widget(adwaita(line.widget), spin.widget)
                adw_preferences_group_add(adwaita(setting.widget), line.widget)
                spins.append((component, spin))
            }
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
            // Nothing to edit: a status page says so, with the hint under it.
            let none = Widget(new: adw_status_page_new())
            adw_status_page_set_icon_name(OpaquePointer(none.widget), "preferences-system-symbolic")
            adw_status_page_set_title(OpaquePointer(none.widget), strings.noPreferences)
            adw_status_page_set_description(OpaquePointer(none.widget), strings.otherSettingsHint)
            adw_preferences_group_set_description(adwaita(group.widget), nil)
            adw_preferences_group_add(adwaita(group.widget), none.widget)
        }
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
