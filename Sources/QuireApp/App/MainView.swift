import GtkBindings
import QuireGtk
import CAdw
import CGtk
import CGtkShim
import QuireCore

/// The main window's content, opened once the walkthrough is finished: the focus timer (its
/// remaining time, Start/Pause/Resume and Reset, bound to the app's actions so both views of the
/// timer enable and disable together; "Time's up" when it runs out), the settings, a button that
/// opens the preferences and one that runs the walkthrough again.
@MainActor
final class MainView: FocusTimerView {
    let root = Box(GTK_ORIENTATION_VERTICAL, spacing: 12)
    /// What the window shows: `root` in an AdwClamp (at most 480 px wide, centred) that scrolls
    /// vertically when the window is short.
    let page: Widget
    private let clamp = Widget(new: adw_clamp_new())
    private let time = Label()
    /// "Time's up", shown only once the timer ran out: an accessible alert (AT-SPI's
    /// `notification` role), which a screen reader announces when it appears.
    private let ended: Widget
    private let endedLabel: Label
    private let toggle: Button
    private let reset: Button
    private let edit: Button
    private let strings: AppStrings
    private let durationWords: Strings

    /// `values` are a finished walkthrough's result (its visible fields).
    init(flow: Flow, locale: String, values: JSONObject, timer: FocusTimerModel) {
        strings = AppStrings(locale: locale)
        durationWords = Strings(locale: locale)
        toggle = Button(label: strings.start)
        reset = Button(label: strings.reset)
        edit = Button(label: strings.editPreferences)
        page = Widget(new: gtk_scrolled_window_new())
        root.addCSSClass("quire-main")
        root.valign = GTK_ALIGN_CENTER
        root.setMargins(top: 24, bottom: 24, start: 24, end: 24)

        let heading = Label(strings.focusTimer)
        heading.addCSSClass("heading")
        root.append(heading)
        time.addCSSClass("quire-timer")
        time.addCSSClass("numeric")
        root.append(time)
        ended = Widget(new: widgetWithRole(gtk_box_get_type(), GTK_ACCESSIBLE_ROLE_ALERT))
        endedLabel = Label(strings.timesUp)
        endedLabel.addCSSClass("title-2")
        endedLabel.addCSSClass("accent")
        gtk_box_append(quire_box(ended.pointer), endedLabel.widget)
        ended.halign = GTK_ALIGN_CENTER
        ended.setAccessibleLabel(strings.timesUp)
        ended.isVisible = false
        root.append(ended)
        let controls = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        controls.halign = GTK_ALIGN_CENTER
        toggle.addCSSClass("suggested-action")
        toggle.addCSSClass("pill")
        gtk_actionable_set_action_name(OpaquePointer(toggle.widget), "app.timer-toggle")
        reset.addCSSClass("pill")
        gtk_actionable_set_action_name(OpaquePointer(reset.widget), "app.timer-reset")
        controls.append(toggle)
        controls.append(reset)
        root.append(controls)

        let settings = Label(strings.yourSettings)
        settings.addCSSClass("heading")
        settings.setMargins(top: 18)
        root.append(settings)
        // The core's summary of the result, as the walkthrough shows each value.
        for shown in Session.resultLines(of: flow, values: values, locale: locale) {
            let line = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
            let label = Label(shown.label)
            label.addCSSClass("dim-label")
            label.hexpand = true
            label.setXAlign(0)
            let valueLabel = Label(shown.value)
            settingTexts[label.text] = valueLabel.text
            valueLabel.setXAlign(1)
            line.append(label)
            line.append(valueLabel)
            root.append(line)
        }
        let buttons = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        buttons.halign = GTK_ALIGN_CENTER
        buttons.setMargins(top: 12)
        edit.addCSSClass("flat")
        edit.setAccessibleLabel(strings.preferences)
        gtk_actionable_set_action_name(OpaquePointer(edit.widget), "app.preferences")
        buttons.append(edit)
        let again = Button(label: strings.runAgain)
        again.addCSSClass("flat")
        gtk_actionable_set_action_name(OpaquePointer(again.widget), "app.walkthrough")
        buttons.append(again)
        root.append(buttons)
        adw_clamp_set_maximum_size(OpaquePointer(clamp.widget), 480)
        adw_clamp_set_child(OpaquePointer(clamp.widget), root.widget)
        gtk_scrolled_window_set_policy(OpaquePointer(page.widget), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(OpaquePointer(page.widget), clamp.widget)
        timer.attach(self)
    }

    /// Gives keyboard focus to the first control that can take it: Start (Pause, Resume), else
    /// Reset once the timer ran out (its end disables Start), else Preferences.
    func focusFirstControl() {
        for button in [toggle, reset, edit] where gtk_widget_is_sensitive(button.widget) != 0 {
            if gtk_widget_grab_focus(button.widget) != 0 { return }
        }
    }

    func show(_ timer: FocusTimer) {
        time.text = timer.display
        let spoken = timer.hasEnded ? strings.timesUp : strings.remaining(durationWords.duration(timer.remaining, withSeconds: true))
        timeAccessibleLabel = "\(strings.focusTimer): \(spoken)"
        time.setAccessibleLabel(timeAccessibleLabel)
        if ended.isVisible != timer.hasEnded { ended.isVisible = timer.hasEnded }
        time.setCSSClass("accent", timer.hasEnded)
        toggle.label = strings.title(of: timer.control)
        toggle.setAccessibleLabel(toggle.label)
    }

    var shownTime: String { time.text }
    var toggleTitle: String { toggle.label }
    /// Whether "Time's up" is shown.
    var showsEnded: Bool { ended.isVisible }
    /// The time's accessible label, as last set (what AT-SPI reads as its name).
    private(set) var timeAccessibleLabel = ""
    /// The settings as shown: label → value.
    private(set) var settingTexts: [String: String] = [:]
}

/// The header bar's timer button: it shows the remaining time ("Time's up" once it ran out) and
/// opens a popover with the same controls as the main view — the second view of the one timer.
@MainActor
final class TimerHeaderButton: FocusTimerView {
    let button: Widget
    private let popover: Widget
    private let time = Label()
    private let toggle: Button
    private let strings: AppStrings
    private let durationWords: Strings

    init(locale: String, timer: FocusTimerModel) {
        strings = AppStrings(locale: locale)
        durationWords = Strings(locale: locale)
        toggle = Button(label: strings.start)
        button = Widget(new: gtk_menu_button_new())
        popover = Widget(new: gtk_popover_new())
        let content = Box(GTK_ORIENTATION_VERTICAL, spacing: 8)
        content.setMargins(top: 6, bottom: 6, start: 6, end: 6)
        time.addCSSClass("title-2")
        time.addCSSClass("numeric")
        content.append(time)
        let controls = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        toggle.addCSSClass("suggested-action")
        gtk_actionable_set_action_name(OpaquePointer(toggle.widget), "app.timer-toggle")
        let reset = Button(label: strings.reset)
        gtk_actionable_set_action_name(OpaquePointer(reset.widget), "app.timer-reset")
        controls.append(toggle)
        controls.append(reset)
        content.append(controls)
        gtk_popover_set_child(quire_popover(popover.pointer), content.widget)
        gtk_menu_button_set_popover(OpaquePointer(button.widget), popover.widget)
        popover.setAccessibleLabel(strings.focusTimer)
        button.addCSSClass("numeric")
        timer.attach(self)
    }

    func show(_ timer: FocusTimer) {
        let shown = timer.hasEnded ? strings.timesUp : timer.display
        gtk_menu_button_set_label(OpaquePointer(button.widget), shown)
        let spoken = timer.hasEnded ? strings.timesUp : strings.remaining(durationWords.duration(timer.remaining, withSeconds: true))
        button.setAccessibleLabel("\(strings.focusTimer): \(spoken)")
        time.text = shown
        toggle.label = strings.title(of: timer.control)
        toggle.setAccessibleLabel(toggle.label)
    }

    var shownTime: String { time.text }
    var toggleTitle: String { toggle.label }

    func popup() { gtk_popover_popup(quire_popover(popover.pointer)) }
}

extension AppStrings {
    /// The start/pause button's title: Start, Pause, or Resume for a timer paused part-way.
    func title(of control: FocusTimer.Control) -> String {
        switch control {
        case .start: start
        case .pause: pause
        case .resume: resume
        }
    }
}

/// A new widget of `type` whose accessible role is `role` instead of its class's (the role is a
/// construct-only property, so it is given to `g_object_new`).
@MainActor
func widgetWithRole(_ type: GType, _ role: GtkAccessibleRole) -> UnsafeMutablePointer<GtkWidget> {
    var value = GValue()
    g_value_init(&value, gtk_accessible_role_get_type())
    g_value_set_enum(&value, gint(role.rawValue))
    defer { g_value_unset(&value) }
    let object = "accessible-role".withCString { name in
        var names: [UnsafePointer<CChar>?] = [name]
        return names.withUnsafeMutableBufferPointer { names in
            withUnsafePointer(to: &value) { values in g_object_new_with_properties(type, 1, names.baseAddress, values) }
        }
    }
    return UnsafeMutableRawPointer(object!).assumingMemoryBound(to: GtkWidget.self)
}
