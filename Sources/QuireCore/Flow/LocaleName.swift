extension Flow {
    /// The language tag for a POSIX locale name (`LANG`, `LC_ALL`, `LC_MESSAGES`): "ja_JP.UTF-8"
    /// → "ja-JP", "en_GB.utf8@euro" → "en-GB"; "C", "POSIX" and the empty name → "en". A name
    /// that does not make a tag Quire accepts (`languageTagProblem`) falls back to its language
    /// alone when that is one ("de_!!" → "de"), else to "en": the user's environment never makes a
    /// session, or a recording of it, that Quire would then refuse to load.
    public static func languageTag(posixLocale name: String) -> String {
        let base = name.split(separator: ".", omittingEmptySubsequences: false).first.map(String.init) ?? name
        let bare = base.split(separator: "@", omittingEmptySubsequences: false).first.map(String.init) ?? base
        if bare.isEmpty || bare == "C" || bare == "POSIX" { return "en" }
        let parts = bare.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        let tag = parts.joined(separator: "-")
        if languageTagProblem(tag) == nil { return tag }
        if let language = parts.first, languageTagProblem(language) == nil { return language }
        return "en"
    }
}
