/// The app's own words (the walkthrough's come from the flow and the core), in English and
/// Japanese, following the session's locale.
struct AppStrings: Sendable {
    let japanese: Bool

    init(locale: String) {
        japanese = (locale.split(separator: "-").first.map { $0.lowercased() } ?? "") == "ja"
    }

    var focusTimer: String { japanese ? "集中タイマー" : "Focus timer" }
    var start: String { japanese ? "開始" : "Start" }
    var pause: String { japanese ? "一時停止" : "Pause" }
    var reset: String { japanese ? "リセット" : "Reset" }
    var runAgain: String { japanese ? "ウォークスルーをもう一度" : "Run the walkthrough again" }
    var yourSettings: String { japanese ? "設定" : "Your settings" }
    var preferences: String { japanese ? "環境設定" : "Preferences" }
    var editPreferences: String { japanese ? "設定を変更…" : "Preferences…" }
    var noPreferences: String { japanese ? "ここで変更できる設定はありません。" : "There are no settings to change here." }
    var otherSettingsHint: String {
        japanese ? "ほかの設定は、ウォークスルーをもう一度行うと変更できます。" : "To change the other settings, run the walkthrough again."
    }
    func remaining(_ time: String) -> String { japanese ? "残り \(time)" : "\(time) remaining" }
}
