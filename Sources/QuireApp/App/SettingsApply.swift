import GtkBindings
import QuireCore
import QuireGtk

/// The app's side of `apply` (docs/session-semantics.md, "Applying a page"): the demo's settings
/// page saves the settings. Asked, it writes them in the background (GIO) and answers
/// `applied`, or `applyFailed` with what went wrong; told the apply stopped (Cancel, a timeout),
/// it drops the write.
@MainActor
final class SettingsApply {
    private let storage: AppStorage
    private let strings: AppStrings
    /// The write of an apply in progress.
    private var write: FileWrite?
    /// The settings were written by the last page's apply: completion need not write them again.
    private(set) var saved = false

    init(storage: AppStorage, strings: AppStrings) {
        self.storage = storage
        self.strings = strings
    }

    /// What the walkthrough's session emitted for one event.
    func heard(_ emitted: [SessionNotification], host: SessionHost) {
        for notification in emitted {
            switch notification {
            case .applyRequested(let page, let values):
                start(page: page, values: values, host: host)
            case .applyFinished(_, .cancelled), .applyFinished(_, .timedOut):
                write?.cancel()
                write = nil
            default:
                break
            }
        }
    }

    /// Writes `values` as the settings, then answers the apply of `page` through `host`.
    func start(page: String, values: JSONObject, host: SessionHost) {
        write?.cancel()
        saved = false
        write = storage.saveSettingsInBackground(values: values) { [weak self, weak host] problem in
            guard let self, let host else { return }
            self.write = nil
            if let problem {
                printError("quire run: cannot save the settings to \(self.storage.settingsPath): \(problem)")
                host.send(.applyFailed(ApplyFailure(page: page, message: self.strings.settingsNotSaved(problem))))
            } else {
                self.saved = true
                host.send(.applied(page: page))
            }
        }
    }
}
