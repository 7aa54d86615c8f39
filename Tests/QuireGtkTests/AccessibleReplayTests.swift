import Foundation
import Testing

@testable import QuireApp

/// `{"expectAccessible": TREE}` in `quire run --replay`: the window's tree, read over AT-SPI by a
/// child process while the app's loop runs, matches the script's; a wrong element fails naming
/// it in the core's tree and in the AT-SPI tree; without the accessibility bus the step fails
/// saying so.
extension RunCommandTests {
    @Test(GtkTest.enabled) func anAccessibilityTreeIsCheckedAgainstTheWindowsATSPITree() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-accessible-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let flow = GtkTest.packageRoot.appendingPathComponent("data/flows/focus-onboarding.json").path
        let original = try String(
            contentsOf: GtkTest.packageRoot.appendingPathComponent("data/sessions/accessible/refused-name.json"), encoding: .utf8
        )
        .replacingOccurrences(of: #""flow": "../../flows/focus-onboarding.json""#, with: #""flow": "\#(flow)""#)
        let script = folder.appendingPathComponent("refused-name.json")
        try Data(original.utf8).write(to: script)
        var environment = ProcessInfo.processInfo.environment
        environment["GTK_A11Y"] = nil
        var out = ""

        var (status, stderr) = try run(["run", "--replay", script.path], environment: environment, timeout: 90, stdout: &out)
        #expect(status == 0, "\(out)\n\(stderr)")
        #expect(out.hasSuffix("1 passed, 0 failed\n"), "\(out)")

        // Next misnamed in the first tree (the About you page's 10th element): both trees say so.
        let wrong = original.replacingOccurrences(
            of: #"{"role": "push button", "name": "Next"}"#, with: #"{"role": "push button", "name": "Onward"}"#)
        #expect(wrong != original)
        try Data(wrong.utf8).write(to: script)
        (status, stderr) = try run(["run", "--replay", script.path], environment: environment, timeout: 90, stdout: &out)
        #expect(status == 1, "\(out)\n\(stderr)")
        #expect(out.contains("(step 3): {\"expectAccessible\""), "\(out)")
        #expect(out.contains("    accessible tree: expected 10 elements, got 10 elements\n"), "\(out)")
        #expect(out.contains("    AT-SPI tree: expected 10 elements, got 10 elements\n"), "\(out)")
        let named = out.components(separatedBy: #"element 10: expected push button "Onward", got push button "Next""#)
        #expect(named.count == 3, "\(out)")
        // What the AT-SPI tree holds, as JSON: the entry, read from the window.
        #expect(out.contains(#"        {"role":"text","name":"Name""#), "\(out)")

        // No accessibility bus for the app: the step cannot be checked, and says why.
        try Data(original.utf8).write(to: script)
        environment["GTK_A11Y"] = "none"
        (status, stderr) = try run(["run", "--replay", script.path], environment: environment, timeout: 90, stdout: &out)
        #expect(status == 1, "\(out)\n\(stderr)")
        #expect(out.contains("AT-SPI tree: this process is not on the accessibility bus"), "\(out)")
    }
}
