import Foundation
import Testing

@testable import QuireCore

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The demo flow (`data/flows/focus-onboarding.json`), which many tests walk.
func demoFlow() throws -> Flow {
    try Flow.load(contentsOf: repositoryRoot.appendingPathComponent("data/flows/focus-onboarding.json").path)
}

@Suite struct FlowLoaderTests {
    @Test func theDemoFlowLoads() throws {
        let flow = try Flow.load(contentsOf: repositoryRoot.appendingPathComponent("data/flows/focus-onboarding.json").path)
        #expect(flow.id == "focus-onboarding")
        #expect(flow.pages.map(\.id) == ["intro", "profile", "focus-setup", "reminder-time", "finish"])
        #expect(flow.fields.map(\.id) == ["userName", "feedLanguage", "focusTime", "reminders", "remindAfter"])
        #expect(flow.pages[1].title?.resolve("ja") == "あなたについて")
    }

    @Test func everyFlowInDataLoads() throws {
        let folder = repositoryRoot.appendingPathComponent("data/flows")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(!files.isEmpty)
        for file in files {
            #expect(throws: Never.self, "\(file)") { try Flow.load(contentsOf: folder.appendingPathComponent(file).path) }
        }
    }

    @Test func displayStringsFallBackFromTagToLanguageToEnglishToFirst() {
        let text = LocalizedText(entries: [("fr", "Bonjour"), ("en", "Hello"), ("ja", "こんにちは"), ("pt-BR", "Olá")])
        #expect(text.resolve("ja") == "こんにちは")
        #expect(text.resolve("ja-JP") == "こんにちは")
        #expect(text.resolve("PT-br") == "Olá")
        #expect(text.resolve("de") == "Hello")
        #expect(LocalizedText(entries: [("fr", "Bonjour"), ("ja", "こんにちは")]).resolve("de") == "Bonjour")
        #expect(LocalizedText("plain").resolve("ja") == "plain")
    }

    @Test func theDefaultsOfPagingAreTheContractsDefaults() throws {
        let paging = try pagesFlow(1, paging: "{}").paging
        #expect(paging == Paging())
        #expect(paging.wrap == false && paging.swipe == true && paging.gate == .valid)
        #expect(paging.snapDistance == 0.5 && paging.flingVelocity == 400 && paging.animationMs == 250)
        #expect(paging.hidesForSinglePage && paging.indicatorStyle == .dots && paging.autoAdvanceMs == 0)
    }

    @Test func aBadFlowListsEveryProblemInDocumentOrder() {
        let lines = problems(
            #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "a", "titel": "x", "fields": [{"id": "n", "kind": "text", "minLength": 5, "maxLength": 2}]}], "x": 1}"#
        )
        #expect(
            lines == [
                "f.json:1:61: $.pages[0].titel: unknown key 'titel' in a page; did you mean 'title'?",
                "f.json:1:127: $.pages[0].fields[0].minLength: minLength 5 is greater than maxLength 2",
                "f.json:1:150: $.x: unknown key 'x' in the flow",
            ])
    }

    @Test func conditionsMayNotLookAhead() {
        let lines = problems(
            #"""
            {"format": "quire.flow/1", "id": "f", "pages": [
              {"id": "a", "visibleIf": {"field": "later", "filled": true},
               "fields": [{"id": "self", "kind": "text", "visibleIf": {"field": "self", "filled": true}}]},
              {"id": "b", "fields": [{"id": "later", "kind": "text"}]}]}
            """#)
        #expect(lines.count == 2)
        #expect(lines[0].contains("$.pages[0].visibleIf.field: the condition looks ahead: 'later' is not answered before this point"))
        #expect(lines[1].contains("$.pages[0].fields[0].visibleIf.field: the condition names its own field 'self'"))
    }

    @Test func aFlowIsDecodableThroughCodableWithTheSameValidation() throws {
        let good = Data(#"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "a"}]}"#.utf8)
        #expect(try JSONDecoder().decode(Flow.self, from: good).id == "f")
        let bad = Data(#"{"format": "quire.flow/1", "id": "f", "pages": []}"#.utf8)
        #expect(throws: DocumentError.self) { try JSONDecoder().decode(Flow.self, from: bad) }
        let flow = try JSONDecoder().decode(Flow.self, from: good)
        let encoded = try JSONEncoder().encode(flow)
        #expect(try JSONDecoder().decode(Flow.self, from: encoded) == flow)
    }

    /// Every file in BadFlows/ is rejected with exactly the lines in its `.expected` file.
    @Test func theBadFlowCorpusGivesItsExactMessages() throws {
        let folder = repositoryRoot.appendingPathComponent("Tests/QuireCoreTests/BadFlows")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 25)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
            let expectedFile = folder.appendingPathComponent(String(file.dropLast(5)) + ".expected")
            let expected = try String(contentsOf: expectedFile, encoding: .utf8).split(separator: "\n").map(String.init)
            do {
                _ = try Flow.load(bytes: bytes, file: file)
                Issue.record("\(file) was accepted")
            } catch {
                #expect(error.diagnostics.map(\.description) == expected, "\(file)")
            }
        }
    }
}

/// Language tags are checked over their bytes; the shapes accepted and refused, against the
/// reading by subtags and characters it replaced.
@Suite struct LanguageTagTests {
    static func bySubtags(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        let rest = { (parts: ArraySlice<Substring>) in
            parts.allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        }
        if parts.count > 1, parts[0].lowercased() == "x" { return rest(parts.dropFirst()) }
        guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return false
        }
        return rest(parts.dropFirst())
    }

    @Test func shapes() {
        for tag in ["en", "ja-JP", "zh-Hant-TW", "x-klingon", "X-a-b", "de-1996", "abcdefgh", "en-abcdefgh", "EN-us"] {
            #expect(FlowReader.isLanguageTag(tag), "\(tag)")
        }
        for tag in [
            "", "e", "x", "x-", "-en", "en-", "en--us", "en_US", "abcdefghi", "en-abcdefghi", "e1", "1en", "en-ü", "日本", "en US", "en-@",
            "en-[", "en-`", "en-{", "en-/", "en-:",
        ] {
            #expect(!FlowReader.isLanguageTag(tag), "\(tag)")
        }
    }

    @Test func agreesWithTheReadingBySubtags() {
        var random = SplitMix64(seed: 9)
        let alphabet = Array("aZx-X0-9-é@[`{/:_ -")
        for _ in 0..<20_000 {
            let tag = String((0..<random.below(12)).map { _ in alphabet[random.below(alphabet.count)] })
            #expect(FlowReader.isLanguageTag(tag) == Self.bySubtags(tag), "\(tag)")
        }
    }
}

/// The user's POSIX locale becomes a tag the loader accepts, whatever the environment holds.
@Suite struct POSIXLocaleTests {
    @Test(arguments: [
        ("ja_JP.UTF-8", "ja-JP"), ("en_GB.utf8@euro", "en-GB"), ("sr_RS@latin", "sr-RS"), ("de", "de"),
        ("C", "en"), ("POSIX", "en"), ("C.UTF-8", "en"), ("", "en"), (".UTF-8", "en"),
        // Names that make no tag: the language alone when it is one, else English.
        ("de_!!", "de"), ("fr_FR_waytoolongsubtag", "fr"), ("x y", "en"), ("é_FR", "en"), ("en__US", "en"),
    ])
    func aLocaleNameBecomesATagTheLoaderAccepts(name: String, tag: String) {
        let made = Flow.languageTag(posixLocale: name)
        #expect(made == tag)
        #expect(Flow.languageTagProblem(made) == nil)
    }
}
