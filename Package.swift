// swift-tools-version:6.1
import Foundation
import PackageDescription

// Quire: a paged-form and input-session engine.
//
// QuireCore and QuireHarness import Foundation only, so `swift build` and `swift test` work on a
// machine without GTK. The GTK 4 views (CGtk, CGtkShim, GtkBindings, QuireGtk, QuireEmbedGtk) are
// added only when pkg-config finds gtk4 while this manifest is read and QUIRE_GTK is not 0; the
// app (CAdw, QuireApp, QuireGtkTests) and `quire run` only when it also finds libadwaita-1: the
// app's chrome is libadwaita's, the embeddable view stays plain GTK 4. `swift test` builds every
// target of a package, and a system-library target whose headers are missing does not build
// (docs/building.md).
/// Runs pkg-config; its output split into flags, or nil when it fails.
func pkgConfig(_ arguments: [String]) -> [String]? {
    let process = Process()
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config"] + arguments
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    } catch {
        return nil
    }
}

// GTK's include paths and libraries, when gtk4 is there. They are passed as flags rather than
// through the system-library target's `pkgConfig:`, which would warn on every build about the
// flags it drops (-pthread, graphene's -msse…); the include paths and libraries are all GTK needs.
let gtkFlags: (includes: [String], libraries: [String])? = {
    if ProcessInfo.processInfo.environment["QUIRE_GTK"] == "0" { return nil }
    guard let includes = pkgConfig(["--cflags-only-I", "gtk4"]), let libraries = pkgConfig(["--libs-only-l", "gtk4"]) else {
        return nil
    }
    return (includes, libraries.filter { $0.hasPrefix("-l") }.map { String($0.dropFirst(2)) })
}()

// libadwaita's, for the app alone (Debian 12: libadwaita-1-dev, 1.2): its include paths (GTK's
// among them) and the libraries beyond GTK's. Nil without GTK or without libadwaita-1.pc; the
// GTK views are built then, the app and `quire run` are not.
let adwaitaFlags: (includes: [String], libraries: [String])? = {
    guard let gtk = gtkFlags, let includes = pkgConfig(["--cflags-only-I", "libadwaita-1"]),
        let libraries = pkgConfig(["--libs-only-l", "libadwaita-1"])
    else { return nil }
    let names = libraries.filter { $0.hasPrefix("-l") }.map { String($0.dropFirst(2)) }
    return (includes.filter { !gtk.includes.contains($0) }, names.filter { !gtk.libraries.contains($0) })
}()

var products: [Product] = [
    .library(name: "QuireCore", targets: ["QuireCore"]),
    .library(name: "QuireHarness", targets: ["QuireHarness"]),
    .executable(name: "quire", targets: ["quire"]),
]

var quireDependencies: [Target.Dependency] = [
    "QuireCore", "QuireHarness",
    .product(name: "ArgumentParser", package: "swift-argument-parser"),
]
var quireSettings: [SwiftSetting] = []

var targets: [Target] = [
    // JSON: reading with positions, writing, paths and diagnostics (no flow, no session).
    .target(name: "QuireJSON"),
    .target(name: "QuireCore", dependencies: ["QuireJSON"]),
    .target(name: "QuireHarness", dependencies: ["QuireCore"]),
    .testTarget(
        name: "QuireCoreTests",
        dependencies: [
            "QuireCore",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ],
        exclude: ["BadFlows"]),
    .testTarget(
        name: "QuireHarnessTests",
        dependencies: ["QuireHarness", "QuireCore", "QuireTestSupport"],
        exclude: ["Fixtures", "Golden"]),
    // What test targets share: reading a child process's output (EINTR-safe).
    .target(name: "QuireTestSupport", path: "Tests/QuireTestSupport"),
]

if let gtk = gtkFlags {
    let swiftIncludes: [SwiftSetting] = [.unsafeFlags(gtk.includes.flatMap { ["-Xcc", $0] })]
    let links: [LinkerSetting] = gtk.libraries.map { .linkedLibrary($0) }
    products.append(.library(name: "QuireGtk", targets: ["QuireGtk"]))
    targets += [
        .systemLibrary(name: "CGtk"),
        .target(
            // DWARF 4: libquire links this shim, and valgrind 3.19 (Debian 12) cannot read clang's
            // default DWARF 5, which breaks the embedding tests' valgrind runs.
            name: "CGtkShim", dependencies: ["CGtk"], cSettings: [.unsafeFlags(gtk.includes + ["-gdwarf-4"])],
            linkerSettings: links + [.linkedLibrary("X11"), .linkedLibrary("dispatch")]),
        // The GTK shell in three layers: Swift over GTK's C API (no Quire), the views of a session
        // (what libquire-gtk embeds), and the walkthrough app with its replay driver (`quire run`).
        .target(name: "GtkBindings", dependencies: ["CGtk", "CGtkShim"], swiftSettings: swiftIncludes),
        .target(name: "QuireGtk", dependencies: ["GtkBindings", "CGtk", "CGtkShim", "QuireCore"], swiftSettings: swiftIncludes),
    ]
}
if let gtk = gtkFlags, let adwaita = adwaitaFlags {
    // The app: libadwaita's headers and library reach QuireApp (and what links it: `quire`, the
    // app's tests) only, never QuireGtk or QuireEmbedGtk, so libquire-gtk's hosts need no libadwaita.
    let swiftIncludes: [SwiftSetting] = [.unsafeFlags((gtk.includes + adwaita.includes).flatMap { ["-Xcc", $0] })]
    targets += [
        .systemLibrary(name: "CAdw"),
        .target(
            name: "QuireApp", dependencies: ["QuireGtk", "GtkBindings", "CGtk", "CGtkShim", "CAdw", "QuireCore", "QuireHarness"],
            swiftSettings: swiftIncludes, linkerSettings: adwaita.libraries.map { .linkedLibrary($0) }),
        .testTarget(
            name: "QuireGtkTests",
            dependencies: [
                "QuireApp", "QuireGtk", "GtkBindings", "QuireCore", "QuireHarness", "CGtk", "CGtkShim", "CAdw", "QuireTestSupport",
            ],
            exclude: ["EndToEnd", "Golden"],
            swiftSettings: swiftIncludes),
    ]
    quireDependencies += ["QuireApp", "QuireGtk"]
    quireSettings += swiftIncludes + [.define("QUIRE_GTK")]
}

// A release `quire` links the Swift runtime and Foundation statically (`-static-stdlib`; the
// static Foundation needs CoreFoundation, ICU and Synchronization named, as objects compiled against the shared
// Foundation do not ask for them). The dynamic loader then binds about 10 shared libraries fewer
// and far fewer symbols: 1 ms instead of 7 before `main`, which is most of what `quire run` paid
// over a C GTK program to reach its first frame (docs/performance.md, "The GTK app against a bare C window").
// Linked with the toolchain's lld: gold repeats glibc's link-time warning about `mktemp`, which
// the static Foundation references. QUIRE_STATIC_SWIFT=0 links them dynamically, as debug builds do.
var quireLinks: [LinkerSetting] = []
if ProcessInfo.processInfo.environment["QUIRE_STATIC_SWIFT"] != "0" {
    quireLinks.append(
        .unsafeFlags(
            [
                "-static-stdlib", "-use-ld=lld", "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections",
                "-lswiftSynchronization",
            ],
            .when(platforms: [.linux], configuration: .release)))
}
targets.append(
    .executableTarget(name: "quire", dependencies: quireDependencies, swiftSettings: quireSettings, linkerSettings: quireLinks))

let package = Package(
    name: "Quire",
    products: products,
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
    ],
    targets: targets,
    swiftLanguageModes: [.v6]
)

// Embedding: libquire.so, Quire's C API (Sources/QuireEmbed: `@c` functions over the core; its
// types in Sources/CQuire, a header-only module; <quire.h> is generated from the Swift code by
// scripts/generate-header). It needs nothing beyond the toolchain: the GObject layer, GObject
// Introspection and the GNOME-style install are built by meson-helper/ (docs/embedding.md).
// With GTK, this product also holds the GTK view of an embedded session (Sources/QuireEmbedGtk,
// quire_engine_gtk_view_new). What is installed is linked by meson-helper from these targets'
// objects instead: libquire (core, C API, QuireSession; no GTK) and libquire-gtk (the view, over
// libquire's one copy of the core), see meson-helper/build-aux/swift-build.
package.products.append(
    .library(name: "Quire", type: .dynamic, targets: gtkFlags == nil ? ["QuireEmbed"] : ["QuireEmbed", "QuireEmbedGtk"]))
// A target's linker settings reach every binary that links it, the test bundle included, where the
// export list's `local: *` also hid the sanitizer runtime's allocation functions (aligned_alloc,
// memalign) from the Swift runtime: memory it got from glibc was then freed by AddressSanitizer's
// free, a bad-free report in every run. The sanitizer builds (scripts/sanitize sets
// QUIRE_SANITIZER_BUILD=1) leave the list out; what libquire.so exports is checked in normal builds.
let exportList: [String] =
    ProcessInfo.processInfo.environment["QUIRE_SANITIZER_BUILD"] == "1"
    ? [] : ["-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/QuireEmbed/libquire.map"]
package.targets += [
    .systemLibrary(name: "CQuire"),
    .target(
        name: "QuireEmbed", dependencies: ["QuireCore", "CQuire"], exclude: ["libquire.map"],
        // A versioned SONAME, and only the quire_* functions exported (libquire.map).
        linkerSettings: [
            .unsafeFlags(["-Xlinker", "-soname=libquire.so.0"] + exportList)
        ]),
    .testTarget(name: "QuireEmbedTests", dependencies: ["QuireEmbed", "QuireCore", "CQuire"]),
    // The bad-input corpus (Tests/BadInputTests/Corpus): run through the `quire` binary and the C API.
    .testTarget(name: "BadInputTests", dependencies: ["QuireEmbed", "QuireCore", "CQuire", "QuireTestSupport"], exclude: ["Corpus"]),
]
if let gtk = gtkFlags {
    let swiftIncludes: [SwiftSetting] = [.unsafeFlags(gtk.includes.flatMap { ["-Xcc", $0] })]
    package.targets += [
        .target(
            name: "QuireEmbedGtk", dependencies: ["QuireEmbed", "QuireGtk", "GtkBindings", "QuireCore", "CQuire", "CGtk", "CGtkShim"],
            swiftSettings: swiftIncludes),
        .testTarget(
            name: "QuireEmbedGtkTests",
            dependencies: ["QuireEmbedGtk", "QuireEmbed", "QuireGtk", "GtkBindings", "QuireCore", "CQuire", "CGtk", "CGtkShim"],
            swiftSettings: swiftIncludes),
    ]
}
