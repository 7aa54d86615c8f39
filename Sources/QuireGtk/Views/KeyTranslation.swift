import GtkBindings
import CGtk
import QuireCore

/// GDK key presses → the keys of CONTRACT §2. The contract names keys as GDK names its keyvals,
/// so this is a lookup, not a table: `gdk_keyval_name` passes through `Key(gdkName:)`. Presses
/// with Control or Alt are left to GTK (accelerators, mnemonics).
public enum KeyTranslation {
    public static func key(named name: String, shift: Bool, control: Bool, alt: Bool) -> Key? {
        if control || alt { return nil }
        if shift && name == "Tab" { return .shiftTab }
        return Key(gdkName: name)
    }

    @MainActor
    public static func key(keyval: UInt32, state: GdkModifierType) -> Key? {
        guard let cName = gdk_keyval_name(keyval) else { return nil }
        let modifiers = state.rawValue
        return key(
            named: String(cString: cName), shift: modifiers & GDK_SHIFT_MASK.rawValue != 0,
            control: modifiers & GDK_CONTROL_MASK.rawValue != 0, alt: modifiers & GDK_ALT_MASK.rawValue != 0)
    }
}
