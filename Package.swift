// swift-tools-version:6.1
import PackageDescription

// Quire: a paged-form and input-session engine.
//
// QuireCore and QuireHarness import Foundation only, so `swift build` and `swift test` work on a
// machine without GTK. The GTK targets (CGtk, QuireGtk) are not part of the package yet; when they
// arrive they are added only where `pkg-config` finds gtk4 (see docs/building.md).
let package = Package(
    name: "Quire",
    products: [
        .library(name: "QuireCore", targets: ["QuireCore"]),
        .library(name: "QuireHarness", targets: ["QuireHarness"]),
        .executable(name: "quire", targets: ["quire"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
    ],
    targets: [
        .target(name: "QuireCore"),
        .target(name: "QuireHarness", dependencies: ["QuireCore"]),
        .executableTarget(
            name: "quire",
            dependencies: [
                "QuireCore", "QuireHarness",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(
            name: "QuireCoreTests",
            dependencies: [
                "QuireCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["BadFlows"]),
        .testTarget(
            name: "QuireHarnessTests",
            dependencies: ["QuireHarness", "QuireCore"],
            exclude: ["Fixtures", "Golden"]),
    ],
    swiftLanguageModes: [.v6]
)

// Embedding: libquire.so, Quire's C API (Sources/QuireEmbed: `@c` functions over the core; its
// types in Sources/CQuire, a header-only module; <quire.h> is generated from the Swift code by
// scripts/generate-header). It needs nothing beyond the toolchain: the GObject layer, GObject
// Introspection and the GNOME-style install are built by meson-helper/ (docs/embedding.md).
package.products.append(.library(name: "Quire", type: .dynamic, targets: ["QuireEmbed"]))
package.targets += [
    .systemLibrary(name: "CQuire"),
    .target(
        name: "QuireEmbed", dependencies: ["QuireCore", "CQuire"], exclude: ["libquire.map"],
        // A versioned SONAME, and only the quire_* functions exported (libquire.map).
        linkerSettings: [
            .unsafeFlags([
                "-Xlinker", "-soname=libquire.so.0",
                "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/QuireEmbed/libquire.map",
            ])
        ]),
    .testTarget(name: "QuireEmbedTests", dependencies: ["QuireEmbed", "QuireCore", "CQuire"]),
]
