import Foundation
import QuireTestSupport
import Testing

/// Shards that merge (`quire test --results`, `quire report merge`) and Bazel's sharding
/// protocol, against the binary (docs/sharding.md).
@Suite struct ShardTests {
    let repository = testsFolder.deletingLastPathComponent().deletingLastPathComponent()

    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-shards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs quire with `environment` added to this process's, Bazel's variables removed first.
    func quire(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Int32 {
        var env = ProcessInfo.processInfo.environment
        for key in ["TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX", "TEST_SHARD_STATUS_FILE", "XML_OUTPUT_FILE"] { env[key] = nil }
        env.merge(environment) { $1 }
        return try runProcess(CommandTests.binary, arguments, in: directory, environment: env).status
    }

    /// A JUnit report without its times (the only thing a merge may change).
    func timeless(_ url: URL) throws -> String {
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.replacing(/time="[0-9.]+"/, with: "time=\"\"").replacing(/\([0-9.]+ ms\)/, with: "()")
            .replacing(/time: [0-9.]+ ms/, with: "time:")
    }

    @Test func mergedShardsGiveTheJUnitAndTAPOfOneRunPassingFailingAndBad() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mixed = fixtures.appendingPathComponent("mixed").path
        let one = try quire(
            [
                "test", "--plain", "--junit", folder.appendingPathComponent("one.xml").path, "--tap",
                folder.appendingPathComponent("one.tap").path, mixed,
            ],
            in: fixtures)
        var results: [String] = []
        for k in 1...3 {
            let file = folder.appendingPathComponent("r\(k).json").path
            results.append(file)
            _ = try quire(["test", "--plain", "--shard", "\(k)/3", "--results", file, mixed], in: fixtures)
        }
        // Given in any order.
        let merged = try quire(
            [
                "report", "merge", "--junit", folder.appendingPathComponent("m.xml").path, "--tap",
                folder.appendingPathComponent("m.tap").path,
            ]
                + results.reversed(),
            in: fixtures)
        #expect(one == 2)  // the fixture has a failing and a bad script: bad wins
        #expect(merged == one)
        let tap = try String(contentsOf: folder.appendingPathComponent("one.tap"), encoding: .utf8)
        #expect(tap.contains("not ok"))
        #expect(try String(contentsOf: folder.appendingPathComponent("m.tap"), encoding: .utf8) == tap)
        let junit = try timeless(folder.appendingPathComponent("one.xml"))
        #expect(junit.contains("<failure") && junit.contains("<error"))
        #expect(try timeless(folder.appendingPathComponent("m.xml")) == junit)

        // A shard missing, or given twice, is refused (exit 2) and nothing is written.
        let partial = folder.appendingPathComponent("partial.xml")
        #expect(try quire(["report", "merge", "--junit", partial.path, results[0], results[2]], in: fixtures) == 2)
        #expect(try quire(["report", "merge", "--junit", partial.path, results[0], results[0], results[1], results[2]], in: fixtures) == 2)
        #expect(!FileManager.default.fileExists(atPath: partial.path))
    }

    @Test func threeBazelShardsOfDataSessionsRunEveryScriptExactlyOnce() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        func testcases(_ url: URL) throws -> [String] {
            let text = try String(contentsOf: url, encoding: .utf8)
            return text.matches(of: /<testcase classname="([^"]*)" name="([^"]*)"/).map { "\($0.1).\($0.2)" }
        }
        #expect(
            try quire(["test", "--plain", "--junit", folder.appendingPathComponent("all.xml").path, "data/sessions"], in: repository) == 0)
        let all = try testcases(folder.appendingPathComponent("all.xml"))
        #expect(all.count > 200)
        var union: [String] = []
        for index in 0..<3 {
            let status = folder.appendingPathComponent("status\(index)")
            let xml = folder.appendingPathComponent("shard\(index).xml")
            let code = try quire(
                ["test", "--plain", "data/sessions"], in: repository,
                environment: [
                    "TEST_TOTAL_SHARDS": "3", "TEST_SHARD_INDEX": "\(index)", "TEST_SHARD_STATUS_FILE": status.path,
                    "XML_OUTPUT_FILE": xml.path,
                ])
            #expect(code == 0)
            #expect(FileManager.default.fileExists(atPath: status.path), "the shard status file is touched")
            let cases = try testcases(xml)
            #expect(!cases.isEmpty && cases.count < all.count)
            union += cases
        }
        #expect(union.sorted() == all.sorted())
        #expect(Set(union).count == union.count)
        // An index out of range is a usage error.
        #expect(
            try quire(["test", "data/sessions"], in: repository, environment: ["TEST_TOTAL_SHARDS": "3", "TEST_SHARD_INDEX": "3"]) == 2)
    }
}
