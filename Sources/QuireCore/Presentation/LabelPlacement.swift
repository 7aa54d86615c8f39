/// Where a field's label goes: beside its control (a duration's or choice's value button, a
/// toggle's switch), or above it across the row's width, as a text field's always is
/// (docs/gtk-shell.md, "Window sizes").
///
/// **Decision:** a label longer than `maxLabelBesideControl` characters is shown above its
/// control. Beside a control a label has about 250 px in a 360 px window, so 80 characters are
/// three lines; a longer label reads as a paragraph, which wants the row's width, and a front
/// that wraps it beside a control pays for it (GTK 4.8 lays a wrapping label beside a switch out
/// again for every height its box is asked about: a 2,000-character label took 5–10 s to show).
extension FieldPresentation {
    /// The most characters (grapheme clusters) a label shown beside its control may have.
    public static let maxLabelBesideControl = 80

    /// Whether the label is shown above the control rather than beside it: it is longer than
    /// `maxLabelBesideControl` characters. A text field's label is above its entry whatever its
    /// length.
    public var stacksLabel: Bool {
        // A character is at least one UTF-8 byte: short labels are decided without counting.
        label.utf8.count > Self.maxLabelBesideControl && label.count > Self.maxLabelBesideControl
    }
}
