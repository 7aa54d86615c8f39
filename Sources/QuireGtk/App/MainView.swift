import CGtk
import CGtkShim
import QuireCore

/// The main window's content, opened once the walkthrough is finished: the focus timer (its
/// remaining time, Start/Pause and Reset, bound to the app's actions so both views of the timer
/// enable and disable together), the settings, a button that opens the preferences and one that
/// runs the walkthrough again.
@MainActor
final class MainView: FocusTimerView {
    let root = Box(GTK_ORIENTATION_VERTICAL, spacing: 12)
    private let time = Label()
    private let toggle: Button
    private let strings: AppStrings

    /// `values` are a finished walkthrough's result (its visible fields).
    init(flow: Flow, locale: String, values: JSONObject, timer: FocusTimerModel) {
        strings = AppStrings(locale: locale)
        toggle = Button(label: strings.start)
        let formatter = Session(flow: flow, locale: locale)
        root.addCSSClass("quire-main")
        root.valign = GTK_ALIGN_CENTER
        root.halign = GTK_ALIGN_CENTER
        root.setMargins(top: 24, bottom: 24, start: 24, end: 24)

        let heading = Label(strings.focusTimer)
        heading.addCSSClass("heading")
        root.append(heading)
        time.addCSSClass("quire-timer")
        time.addCSSClass("numeric")
        root.append(time)
        let controls = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
        controls.halign = GTK_ALIGN_CENTER
        toggle.addCSSClass("suggested-action")
        toggle.addCSSClass("pill")
        gtk_actionable_set_action_name(OpaquePointer(toggle.widget), "app.timer-toggle")
        let reset = Button(label: strings.reset)
        reset.addCSSClass("pill")
        gtk_actionable_set_action_name(OpaquePointer(reset.widget), "app.timer-reset")
        controls.append(toggle)
        controls.append(reset)
        root.append(controls)

        let settings = Label(strings.yourSettings)
        settings.addCSSClass("heading")
        settings.setMargins(top: 18)
        root.append(settings)
        for field in flow.fields {
            guard let json = values[field.id], let value = field.value(from: json) else { continue }
            let line = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 12)
            let label = Label(field.label?.resolve(locale) ?? field.id)
            label.addCSSClass("dim-label")
            label.hexpand = true
            label.setXAlign(0)
            let shown = formatter.display(value, of: field)
            let valueLabel = Label(shown.isEmpty ? "—" : shown)
            valueLabel.setXAlign(1)
            line.append(label)
            line.append(valueLabel)
            root.append(line)
        }
        let buttons = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 6)
        buttons.halign = GTK_ALIGN_CENTER
        buttons.setMargins(top: 12)
        let edit = Button(label: strings.editPreferences)
        edit.addCSSClass("flat")
        edit.setAccessibleLabel(strings.preferences)
        gtk_actionable_set_action_name(OpaquePointer(edit.widget), "app.preferences")
        buttons.append(edit)
        let again = Button(label: strings.runAgain)
        again.addCSSClass("flat")
        gtk_actionable_set_action_name(OpaquePointer(again.widget), "app.walkthrough")
        buttons.append(again)
        root.append(buttons)
        timer.attach(self)
    }

    func show(_ timer: FocusTimer) {
        time.text = timer.display
        time.setAccessibleLabel("\(strings.focusTimer): \(strings.remaining(timer.display))")
        toggle.label = timer.isRunning ? strings.pause : strings.start
        toggle.setAccessibleLabel(toggle.label)
    }

    var shownTime: String { time.text }
    var toggleTitle: String { toggle.label }
}

/// The header bar's timer button: it shows the remaining time and opens a popover with the same
/// controls as the main view — the second view of the one timer.
@MainActor
final class TimerHeaderButton: FocusTimerView {
    let button: Widget
    private let popover: Widget
    private let time = Label()
    private let toggle: Button
    private let strings: AppStrings

    init(locale: String, timer: FocusTimerModel) {
        strings = AppStrings(locale: locale)
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
        gtk_menu_button_set_label(OpaquePointer(button.widget), timer.display)
        button.setAccessibleLabel("\(strings.focusTimer): \(strings.remaining(timer.display))")
        time.text = timer.display
        toggle.label = timer.isRunning ? strings.pause : strings.start
        toggle.setAccessibleLabel(toggle.label)
    }

    var shownTime: String { time.text }
    var toggleTitle: String { toggle.label }

    func popup() { gtk_popover_popup(quire_popover(popover.pointer)) }
}
