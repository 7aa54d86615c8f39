import GtkBindings
import CGtk
import QuireCore

/// The chrome around the pages: Back, Skip and Next/Finish buttons with the page indicator
/// between them, the flow's progress bar, and Cancel above the pages at the start (in the app's
/// header bar, where gnome-initial-setup has it; in a row of its own in an embedded view).
/// Buttons keep their places (a disabled one is greyed, Next and Finish share one slot), so the
/// layout never jumps as pages change.
@MainActor
final class ChromeView: SessionView {
    let bar = CenterBox()
    /// The row above the pages that holds Cancel.
    let top = Box(GTK_ORIENTATION_HORIZONTAL)
    let progress = ProgressBar()
    let indicator: PageIndicatorView
    private weak var host: SessionHost?
    private let back = Button(label: "Back")
    private let skip = Button(label: "Skip")
    private let next = Button(label: "Next")
    private let finish = Button(label: "Finish")
    private let cancel = Button(label: "Cancel")
    /// Next or Finish (not a GtkStack: GTK 4.8 puts its pages in the accessibility tree as
    /// panels Orca speaks, "GtkStackPage panel" whenever focus reached Next).
    private let trailing = OneShown(GTK_ORIENTATION_HORIZONTAL)

    init(host: SessionHost) {
        self.host = host
        indicator = PageIndicatorView(host: host)
        bar.addCSSClass("quire-chrome")
        bar.setMargins(top: 8, bottom: 12, start: 12, end: 12)
        progress.addCSSClass("quire-progress")
        for (button, title) in [(back, "Back"), (skip, "Skip"), (next, "Next"), (finish, "Finish"), (cancel, "Cancel")] {
            button.setAccessibleLabel(title)
        }
        progress.valign = GTK_ALIGN_START
        progress.hexpand = true
        progress.canTarget = false
        progress.setAccessibleLabel("Progress")
        for (button, target) in [(back, TapTarget.Button.back), (skip, .skip), (next, .next), (finish, .finish), (cancel, .cancel)] {
            // Clicking a button leaves the keyboard focus where it was (the pages' keys go on working).
            button.focusOnClick = false
            button.onClicked { [weak self] in self?.host?.send(.tap(.button(target))) }
        }
        next.addCSSClass("suggested-action")
        finish.addCSSClass("suggested-action")
        skip.addCSSClass("flat")
        cancel.addCSSClass("flat")
        cancel.setAccessibleDescription("Leave the walkthrough")
        top.addCSSClass("quire-top")
        top.setMargins(top: 8, start: 12, end: 12)
        top.append(cancel)
        trailing.add(next, name: "next")
        trailing.add(finish, name: "finish")
        trailing.equalizeLengths()
        let end = Box(GTK_ORIENTATION_HORIZONTAL, spacing: 8)
        end.append(skip)
        end.append(trailing)
        bar.setStart(back)
        bar.setCenter(indicator.area)
        bar.setEnd(end)
    }

    /// Cancel: in `top`, or in the window's header bar (`WalkthroughView.placeCancel`).
    var cancelButton: Button { cancel }
    var backEnabled: Bool { back.isSensitive }
    var nextButton: Button { next }

    /// The button for a target, if the chrome shows one a user could click now.
    func button(_ target: TapTarget.Button) -> Button? {
        switch target {
        case .back: return back
        case .skip: return skip
        case .next: return trailing.visibleName == "next" ? next : nil
        case .finish: return trailing.visibleName == "finish" ? finish : nil
        case .cancel: return cancel
        }
    }
    /// "next" or "finish": which of the two shares the trailing slot now.
    var trailingShown: String { trailing.visibleName }

    func render(_ session: Session, _ notifications: [SessionNotification]) {
        let chrome = session.chrome
        var relabelled = false
        for presentation in chrome.buttons {
            let button: Button
            switch presentation.button {
            case .back: button = back
            case .skip: button = skip
            case .next: button = next
            case .finish: button = finish
            case .cancel: button = cancel
            }
            if button.label != presentation.title {
                button.label = presentation.title
                button.setAccessibleLabel(presentation.title)
                relabelled = true
            }
            button.isSensitive = presentation.enabled
        }
        if relabelled { trailing.equalizeLengths() }
        let finishEnabled = chrome.buttons.first { $0.button == .finish }?.enabled ?? false
        trailing.visibleName = finishEnabled ? "finish" : "next"
        progress.fraction = chrome.progress
        indicator.render(session, notifications)
    }
}
