import GtkBindings
import QuireGtk
import CGtk
import CGtkShim
import QuireCore
import QuireHarness

/// `{"expectScreenshot": "NAME"}` in `quire run --replay`: the walkthrough's picture (GTK's cairo
/// renderer, animations and the cursor's blink off, the script's clock) compared byte for byte
/// with the baseline `SCRIPT.screenshots/NAME.png`; with `update`, the baseline is written
/// instead. A mismatch counts the pixels that differ and, with a trace, saves the expected and
/// actual pictures and a difference (differing pixels red over a faded copy of the actual one)
/// beside the trace's pages. See docs/session-scripts.md, "Screenshot baselines".
@MainActor
final class ScreenshotBaseline {
    let driver: ReplayDriver
    let folder: String
    let update: Bool
    let traceDirectory: String?
    let base: String
    /// Baselines written (`update`), in order.
    private(set) var written: [String] = []

    init(driver: ReplayDriver, scriptFile: String, update: Bool, traceDirectory: String?) {
        self.driver = driver
        folder = SessionScript.screenshotFolder(ofScript: scriptFile)
        self.update = update
        self.traceDirectory = traceDirectory
        base = TraceCamera.baseName(scriptFile)
        quire_settings_set_bool("gtk-enable-animations", 0)
        quire_settings_set_bool("gtk-cursor-blink", 0)
    }

    /// The window's picture as it stands, once GTK has painted the last change.
    func picture() -> [UInt8]? {
        var picture = Screenshot.png(of: driver.root)
        for _ in 0..<25 where picture == nil {
            Toolkit.run(milliseconds: 20)
            picture = Screenshot.png(of: driver.root)
        }
        return picture
    }

    func check(step: Int, name: String) -> ScreenshotCheck {
        let path = folder + "/" + name + ".png"
        guard let actual = picture() else { return ScreenshotCheck(lines: ["screenshot '\(name)': the window could not be drawn"]) }
        if update {
            g_mkdir_with_parents(folder, 0o755)
            guard Self.write(actual, to: path) else {
                return ScreenshotCheck(lines: ["screenshot '\(name)': cannot write the baseline \(path)"])
            }
            written.append(path)
            return ScreenshotCheck()
        }
        guard let expected = Self.read(path) else {
            return ScreenshotCheck(
                lines: ["screenshot '\(name)': no baseline \(path) (write it with quire run --replay SCRIPT --update-screenshots)"],
                images: save(step: step, [("actual", actual)]))
        }
        if expected == actual { return ScreenshotCheck() }
        var lines = ["screenshot '\(name)' differs from \(path)"]
        var images: [(String, [UInt8])] = [("expected", expected), ("actual", actual)]
        if let comparison = Self.compare(expected, actual) {
            lines[0] +=
                ": \(comparison.differing) of \(comparison.width * comparison.height) pixels"
                + (comparison.sizes.isEmpty ? "" : " (\(comparison.sizes))")
            images.append(("difference", comparison.png))
        } else {
            lines[0] += " (the baseline is not a PNG GTK can read)"
        }
        if traceDirectory == nil { lines[0] += "; --trace DIR shows expected, actual and the difference" }
        return ScreenshotCheck(lines: lines, images: save(step: step, images))
    }

    /// Saves pictures beside the trace's pages (`BASE-step-N-LABEL.png`); their names.
    func save(step: Int, _ images: [(String, [UInt8])]) -> [(label: String, image: String)] {
        guard let traceDirectory else { return [] }
        var saved: [(label: String, image: String)] = []
        for (label, png) in images {
            let name = "\(base)-step-\(step)-\(label).png"
            if Self.write(png, to: traceDirectory + "/" + name) { saved.append((label, name)) }
        }
        return saved
    }

    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                g_file_set_contents(path, $0, buffer.count, nil) != 0
            }
        }
    }

    static func read(_ path: String) -> [UInt8]? {
        var contents: UnsafeMutablePointer<CChar>?
        var length: gsize = 0
        guard g_file_get_contents(path, &contents, &length, nil) != 0, let contents else { return nil }
        defer { g_free(contents) }
        return Array(UnsafeRawBufferPointer(start: contents, count: Int(length)))
    }

    /// A picture's pixels, 4 bytes each (GDK's default memory format: premultiplied B, G, R, A).
    struct Pixels {
        var width: Int
        var height: Int
        var bytes: [UInt8]

        init?(png: [UInt8]) {
            let data = png.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            defer { g_bytes_unref(data) }
            var error: UnsafeMutablePointer<GError>?
            guard let texture = gdk_texture_new_from_bytes(data, &error) else {
                g_error_free(error)
                return nil
            }
            defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
            width = Int(gdk_texture_get_width(texture))
            height = Int(gdk_texture_get_height(texture))
            bytes = [UInt8](repeating: 0, count: width * height * 4)
            bytes.withUnsafeMutableBufferPointer { gdk_texture_download(texture, $0.baseAddress, gsize(width * 4)) }
        }

        func pixel(_ x: Int, _ y: Int) -> ArraySlice<UInt8>? {
            guard x < width, y < height else { return nil }
            let at = (y * width + x) * 4
            return bytes[at..<at + 4]
        }
    }

    /// How two pictures differ: the pixels that differ (or that only one of them has), and a
    /// picture of it over the larger size — differing pixels red, the others the actual picture
    /// faded to a third. Nil when either cannot be decoded.
    static func compare(_ expectedPNG: [UInt8], _ actualPNG: [UInt8]) -> (
        differing: Int, width: Int, height: Int, sizes: String, png: [UInt8]
    )? {
        guard let expected = Pixels(png: expectedPNG), let actual = Pixels(png: actualPNG) else { return nil }
        let width = max(expected.width, actual.width)
        let height = max(expected.height, actual.height)
        var out = [UInt8](repeating: 255, count: width * height * 4)
        var differing = 0
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * 4
                let a = actual.pixel(x, y)
                if let a, let e = expected.pixel(x, y), a.elementsEqual(e) {
                    // Faded: a third of the pixel over white (premultiplied, so alpha counts).
                    let alpha = Int(a[a.startIndex + 3])
                    for channel in 0..<3 {
                        let value = Int(a[a.startIndex + channel]) + (255 - alpha)
                        out[at + channel] = UInt8(255 - (255 - min(255, value)) / 3)
                    }
                    out[at + 3] = 255
                } else {
                    differing += 1
                    out[at] = 0  // B
                    out[at + 1] = 0  // G
                    out[at + 2] = 255  // R
                    out[at + 3] = 255
                }
            }
        }
        let sizes =
            expected.width == actual.width && expected.height == actual.height
            ? "" : "the baseline is \(expected.width)×\(expected.height), the window \(actual.width)×\(actual.height)"
        let data = out.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(data) }
        guard let texture = gdk_memory_texture_new(Int32(width), Int32(height), GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, data, gsize(width * 4)),
            let png = gdk_texture_save_to_png_bytes(texture)
        else { return nil }
        defer {
            g_bytes_unref(png)
            g_object_unref(UnsafeMutableRawPointer(texture))
        }
        var size: Int = 0
        guard let pointer = g_bytes_get_data(png, &size) else { return nil }
        return (differing, width, height, sizes, Array(UnsafeRawBufferPointer(start: pointer, count: size)))
    }
}
