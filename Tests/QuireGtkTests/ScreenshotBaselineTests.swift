import Foundation
import Testing

@testable import QuireApp

/// `{"expectScreenshot": NAME}` in `quire run --replay`: baselines written with
/// `--update-screenshots`, then compared byte for byte; a changed title is caught, every
/// mismatch of the run is listed, and the trace has the expected, actual and difference pictures.
extension RunCommandTests {
    @Test(GtkTest.enabled) func aScreenshotBaselineCatchesAChangedTitleAndTheTraceShowsTheDifference() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-screenshots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = GtkTest.packageRoot.appendingPathComponent("Tests/QuireHarnessTests/Fixtures/screenshots")
        for name in ["flow.json", "walkthrough.json"] {
            try FileManager.default.copyItem(at: fixture.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let script = folder.appendingPathComponent("walkthrough.json").path
        let baselines = folder.appendingPathComponent("walkthrough.screenshots")
        let environment = ProcessInfo.processInfo.environment
        var out = ""

        // No baseline yet: the step fails and says how to write one.
        var (status, stderr) = try run(["run", "--replay", script], environment: environment, stdout: &out)
        #expect(status == 1, "\(stderr)")
        #expect(out.contains("2 screenshots differ from their baselines:"), "\(out)")
        #expect(out.contains("no baseline \(baselines.path)/welcome.png (write it with quire run --replay SCRIPT --update-screenshots)"))

        (status, stderr) = try run(["run", "--replay", script, "--update-screenshots"], environment: environment, stdout: &out)
        #expect(status == 0, "\(stderr)")
        #expect(out.contains("screenshot baseline written: \(baselines.path)/welcome.png"), "\(out)")
        let welcome = try Data(contentsOf: baselines.appendingPathComponent("welcome.png"))
        #expect(welcome.starts(with: [0x89, 0x50, 0x4E, 0x47]))

        // The same window again: byte for byte the same pictures.
        (status, stderr) = try run(["run", "--replay", script], environment: environment, stdout: &out)
        #expect(status == 0, "\(out)\n\(stderr)")

        // Both pages' titles changed: both screenshots are listed, not only the first.
        let flow = folder.appendingPathComponent("flow.json")
        var text = try String(contentsOf: flow, encoding: .utf8)
        text = text.replacingOccurrences(of: #""title": "Welcome""#, with: #""title": "Welcome back""#)
            .replacingOccurrences(of: #""title": "Your name""#, with: #""title": "Your full name""#)
        try Data(text.utf8).write(to: flow)
        let trace = folder.appendingPathComponent("trace")
        (status, stderr) = try run(["run", "--replay", script, "--trace", trace.path], environment: environment, stdout: &out)
        #expect(status == 1, "\(stderr)")
        #expect(out.contains("2 screenshots differ from their baselines:"), "\(out)")
        #expect(out.contains("step 1: screenshot 'welcome' differs from \(baselines.path)/welcome.png: "))
        #expect(out.contains("step 5: screenshot 'name-page' differs from \(baselines.path)/name-page.png: "))
        // The baselines are left as they were.
        #expect(try Data(contentsOf: baselines.appendingPathComponent("welcome.png")) == welcome)

        // The trace: expected, actual and difference for each, shown side by side on the page.
        // (Pictures are named after the script's path, as the trace's pages are.)
        let files = try FileManager.default.contentsOfDirectory(atPath: trace.path)
        func picture(_ step: Int, _ label: String) throws -> String {
            try #require(files.first { $0.hasSuffix("walkthrough-step-\(step)-\(label).png") }, "\(files)")
        }
        for label in ["expected", "actual", "difference"] {
            _ = try picture(1, label)
            _ = try picture(5, label)
        }
        #expect(
            try Data(contentsOf: trace.appendingPathComponent(picture(5, "expected")))
                == Data(
                    contentsOf: baselines.appendingPathComponent("name-page.png")))
        let page = try #require(files.first { $0.hasSuffix(".html") && $0 != "index.html" })
        let html = try String(contentsOf: trace.appendingPathComponent(page), encoding: .utf8)
        #expect(html.contains(#"<figcaption>difference</figcaption><img class="shot" src="\#(try picture(5, "difference"))""#))
        // The difference is red where the title changed, and only there: the rest of the page
        // (the field, the buttons) is the same.
        let difference = try [UInt8](Data(contentsOf: trace.appendingPathComponent(picture(5, "difference"))))
        let pixels = try #require(ScreenshotBaseline.Pixels(png: difference))
        var red = 0
        var redRows = Set<Int>()
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                let p = pixels.pixel(x, y)!
                if p.elementsEqual([0, 0, 255, 255]) {
                    red += 1
                    redRows.insert(y)
                }
            }
        }
        #expect(red > 100)
        #expect(redRows.count < pixels.height / 8, "only the title's rows differ (\(redRows.count) of \(pixels.height))")
    }
}
