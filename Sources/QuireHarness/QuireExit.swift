/// The exit statuses of `quire` and its commands: the one list the command line, the app
/// (`quire run`) and the docs (docs/cli.md) read.
public enum QuireExit {
    public static let success: Int32 = 0
    /// A check failed: a script, a flow rejected by `quire check`, a budget.
    public static let failed: Int32 = 1
    /// Bad input: a file that cannot be read or is not what it should be, a bad option.
    public static let badInput: Int32 = 2
    /// `quire run`: no display could be opened.
    public static let noDisplay: Int32 = 3
    /// `quire run`: this build has no GTK support.
    public static let noGTK: Int32 = 4
    /// `quire run --record`: the recording could not be written.
    public static let cannotWrite: Int32 = 5
    /// `quire map --format svg`: Graphviz's `dot` is missing or failed.
    public static let noGraphviz: Int32 = 6
}
