// swift-tools-version:6.1
import Foundation
import PackageDescription

// Quire's benchmark suite (README "Performance"). It is a package of its own, depending on the
// root package by path, so that the root package keeps building and testing without the benchmark
// dependency (and without json-glib): `cd Benchmarks && swift package benchmark`, or
// scripts/bench, which also checks the budgets.

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

// json-glib, the C baseline of the loading row, when its development files are there (include
// paths and libraries only, as the root package does for GTK).
let jsonGlib: (includes: [String], libraries: [String])? = {
    guard let includes = pkgConfig(["--cflags-only-I", "json-glib-1.0"]),
        let libraries = pkgConfig(["--libs-only-l", "json-glib-1.0"])
    else { return nil }
    return (includes, libraries.filter { $0.hasPrefix("-l") }.map { String($0.dropFirst(2)) })
}()

// The root package is named by its folder, whatever the clone is called.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "QuireBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "CJSONGlib",
            cSettings: jsonGlib.map { [.define("QUIRE_BENCH_HAVE_JSON_GLIB"), .unsafeFlags($0.includes)] } ?? [],
            linkerSettings: jsonGlib.map { $0.libraries.map { .linkedLibrary($0) } } ?? []),
        .target(
            name: "QuireWorkloads",
            dependencies: [.product(name: "QuireCore", package: root), .product(name: "QuireHarness", package: root)]),
        // A plain driver for profiling one row under valgrind (callgrind, DHAT): no benchmark
        // runtime in the counts.
        .executableTarget(
            name: "QuireProfile",
            dependencies: ["CJSONGlib", "QuireWorkloads", .product(name: "QuireCore", package: root)]),
        .executableTarget(
            name: "QuireBenchmarks",
            dependencies: [
                "CJSONGlib", "QuireWorkloads",
                .product(name: "QuireCore", package: root),
                .product(name: "QuireHarness", package: root),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/QuireBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ],
    swiftLanguageModes: [.v6]
)
