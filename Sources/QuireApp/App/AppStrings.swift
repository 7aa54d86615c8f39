import GtkBindings
import QuireGtk
import CGtk
import Glibc
import QuireCore

/// The app's own words — the main window, its menu, the shortcuts window, the About dialog, the
/// timer's notification — through gettext (domain `quire`, catalogues from `po/`), in the
/// session's language. The walkthrough's words come from the flow and the core, durations from
/// the core's `Strings.duration` / `Strings.countdown`.
///
/// Each message is a call of `tr` with a string literal: `scripts/update-po` extracts them with
/// xgettext into `po/quire.pot` and merges `po/ja.po`; `AppStringsTests` checks that the three
/// agree. Placeholders are named (`{time}`), so a translation can put them anywhere.
@MainActor
struct AppStrings {
    /// The language the strings are in: the session's (`ja-JP` → `ja`).
    let language: String

    init(locale: String) {
        language = locale.split(separator: "-").first.map { $0.lowercased() } ?? "en"
    }

    func tr(_ message: String, _ values: [String: String] = [:]) -> String {
        var text = Gettext.translate(message, language: language)
        for (name, value) in values { text = text.replacing("{\(name)}", with: value) }
        return text
    }

    // The main window and its timer.
    var appName: String { "Quire" }
    var focusTimer: String { tr("Focus timer") }
    var start: String { tr("Start") }
    var pause: String { tr("Pause") }
    var resume: String { tr("Resume") }
    var reset: String { tr("Reset") }
    var timesUp: String { tr("Time's up") }
    func remaining(_ time: String) -> String { tr("{time} remaining", ["time": time]) }
    func sessionEnded(_ duration: String) -> String { tr("Your focus session of {duration} has ended.", ["duration": duration]) }
    // `quire run --watch`: what the last save of the flow did.
    var watchNotLoaded: String { tr("The saved flow does not load; still running the one before:") }
    func watchReplayStopped(event: Int, of total: Int, json: String, reason: String) -> String {
        let values = ["event": String(event), "total": String(total), "json": json, "reason": reason]
        return tr("Reloaded; replay stopped at event {event} of {total} {json}: {reason}", values)
    }
    var runAgain: String { tr("Run the walkthrough again") }
    var yourSettings: String { tr("Your settings") }
    var preferences: String { tr("Preferences") }
    var editPreferences: String { tr("Preferences…") }
    var noPreferences: String { tr("There are no settings to change here.") }
    var otherSettingsHint: String { tr("To change the other settings, run the walkthrough again.") }
    var cannotSaveSettings: String { tr("Cannot save the settings") }
    /// A failed save of the last page's apply: the page message (the notice).
    func settingsNotSaved(_ problem: String) -> LocalizedText {
        LocalizedText(tr("Your settings could not be saved: {problem}", ["problem": problem]))
    }
    var cannotSaveWalkthrough: String { tr("Cannot save the walkthrough in progress") }

    // The primary menu and the About dialog.
    var mainMenu: String { tr("Main Menu") }
    var keyboardShortcuts: String { tr("Keyboard Shortcuts") }
    var aboutApp: String { tr("About Quire") }
    var quit: String { tr("Quit") }
    var summary: String { tr("Fill in paged forms and walkthroughs") }

    // The shortcuts window: its groups and what each key does.
    var general: String { tr("General") }
    var walkthrough: String { tr("Walkthrough") }
    var showShortcuts: String { tr("Show keyboard shortcuts") }
    var startOrPause: String { tr("Start or pause the timer") }
    var resetTimer: String { tr("Reset the timer") }
    var previousPage: String { tr("Previous page") }
    var nextPage: String { tr("Next page") }
    var skipPage: String { tr("Skip this page") }
    var finishWalkthrough: String { tr("Finish the walkthrough") }
    var nextControl: String { tr("Next field or control") }
    var previousControl: String { tr("Previous field or control") }
    var confirmField: String { tr("Confirm the field and go on") }
    var cancelField: String { tr("Close the input panel without keeping the change") }
    var firstLastPage: String { tr("First or last page (on the page indicator)") }
    var recordExpectation: String { tr("Recording: expect what is on screen") }
    func expectationRecorded(_ step: Int) -> String { tr("Expectation recorded as step {step}", ["step": String(step)]) }
}

/// gettext for the app (glibc's `dgettext`), domain `quire`.
///
/// **Decision (where the catalogues are):** the compiled catalogues (`LANG/LC_MESSAGES/quire.mo`)
/// are looked for in `$QUIRE_LOCALEDIR`, then beside the executable as installed
/// (`BIN/../share/locale`), then in the build folder (`.build/locale`, two levels above
/// `.build/TRIPLE/debug/quire`), which `scripts/setup` fills with `msgfmt` — `swift build` has no
/// hook for it, and the README's two commands both run `scripts/setup`. Without one, the app's
/// strings are English (gettext's msgids).
///
/// **Decision (which language):** the session's locale (`--locale`, else the user's), set once as
/// the process's `LANGUAGE` when the app starts — GTK's own strings (the About dialog's, the
/// shortcuts window's) follow it too — with `LC_MESSAGES` moved off `C` to `C.UTF-8` when the
/// process has no locale, as gettext ignores `LANGUAGE` under `C`. A lookup in another language
/// (tests) sets `LANGUAGE` for that lookup only.
@MainActor
enum Gettext {
    static let domain = "quire"
    private static var boundFolder: String??
    private static var prepared = false

    /// The running app's language for the whole process (`QuireApplication.run`): `LANGUAGE`
    /// set once, so GTK's own words follow the session's locale too.
    static func setProcessLanguage(_ language: String) {
        prepare()
        setenv("LANGUAGE", language, 1)
        dropCachedTranslations()
    }

    static func translate(_ message: String, language: String) -> String {
        prepare()
        let current = getenv("LANGUAGE").map { String(cString: $0) }
        guard current != language else { return lookup(message) }
        // Another language than the process's (tests ask for several): `LANGUAGE` for this one
        // lookup, put back at once, so processes started meanwhile inherit the environment as it was.
        setenv("LANGUAGE", language, 1)
        dropCachedTranslations()
        defer {
            if let current { setenv("LANGUAGE", current, 1) } else { unsetenv("LANGUAGE") }
            dropCachedTranslations()
        }
        return lookup(message)
    }

    private static func lookup(_ message: String) -> String {
        // Copied inside: without a translation gettext returns the msgid pointer it was given.
        message.withCString { id in dgettext(domain, id).map { String(cString: $0) } ?? message }
    }

    /// Where the catalogues were found (nil: none; the strings stay English).
    static var folder: String? {
        if case .some(let found) = boundFolder { return found }
        let found = findFolder()
        boundFolder = .some(found)
        return found
    }

    private static func prepare() {
        guard !prepared else { return }
        prepared = true
        let messages = setlocale(LC_MESSAGES, nil).map { String(cString: $0) } ?? "C"
        if messages == "C" || messages == "POSIX" { setlocale(LC_MESSAGES, "C.UTF-8") }
        if let folder { bindtextdomain(domain, folder) }
        bind_textdomain_codeset(domain, "UTF-8")
    }

    /// Setting the default domain to itself makes gettext drop the translations it cached
    /// (glibc's documented signal that the environment changed).
    private static func dropCachedTranslations() {
        if let current = textdomain(nil) { textdomain(current) }
    }

    private static func findFolder() -> String? {
        var candidates: [String] = []
        if let given = getenv("QUIRE_LOCALEDIR"), given.pointee != 0 { candidates.append(String(cString: given)) }
        if let executable = executableFolder() {
            candidates += [executable + "/../share/locale", executable + "/../../locale"]
        }
        return candidates.first { g_file_test($0, G_FILE_TEST_IS_DIR) != 0 }
    }

    /// The folder of the running executable (`/proc/self/exe`, symbolic links resolved).
    private static func executableFolder() -> String? {
        guard let path = g_file_read_link("/proc/self/exe", nil) else { return nil }
        defer { g_free(path) }
        guard let folder = g_path_get_dirname(path) else { return nil }
        defer { g_free(folder) }
        return String(cString: folder)
    }
}
