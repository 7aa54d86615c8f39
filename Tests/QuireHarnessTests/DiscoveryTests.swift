import Foundation
import Testing

@testable import QuireHarness

@Suite struct DiscoveryTests {
    /// A folder of thousands of scripts with names up to 250 bytes long is listed whole, each name
    /// exactly. The listing's buffer holds many entries, each only as long as its name: a name read
    /// as the whole `d_name` array ran past the buffer's end at its last entry (AddressSanitizer
    /// caught it on a folder of 3,000 scripts; under it, this test fails the same way).
    @Test func aFolderOfThousandsOfFilesIsListedWhole() throws {
        let scratch = try Scratch()
        var written: [String] = []
        for index in 0..<2_500 {
            let name = "s\(index)-" + String(repeating: "x", count: index % 240) + ".json"
            #expect(FileManager.default.createFile(atPath: scratch.path + "/" + name, contents: Data("{}".utf8)))
            written.append(name)
        }
        let found = FileWalker.jsonFiles(in: scratch.path)
        #expect(found.allSatisfy { $0.problem == nil && $0.folders.isEmpty })
        #expect(found.map { FileWalker.lastComponent(of: $0.path) } == written.sorted())
        #expect(found.map(\.path) == found.map(\.path).sorted())
    }
}
