import Foundation
import Testing

@testable import QuireCore

@Suite struct JSONTests {
    func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue { try JSONParser.parse(text).value }

    func syntaxError(_ bytes: [UInt8], limits: JSONLimits = .default) -> String? {
        do {
            _ = try JSONParser.parse(bytes, limits: limits)
            return nil
        } catch {
            return "\(SourcePosition(offset: error.offset, in: bytes)): \(error.path): \(error.message)"
        }
    }

    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(#"{"a": [1, -2.5, 1e3, true, false, null, "x\u00e9\n\ud83d\ude00"], "b": {}}"#)
        #expect(value == ["a": [1, -2.5, 1000, true, false, nil, "xé\n😀"], "b": [:]])
    }

    @Test func writesAndReadsBackExactly() throws {
        let value: JSONValue = [
            "pi": 3.141592653589793, "third": .number(1.0 / 3), "big": 123_456_789_012, "s": "q\"\\\u{1}é", "n": [0.1, -0.0],
        ]
        let text = JSONWriter.string(value)
        #expect(try parse(text) == value)
        #expect(try parse(JSONWriter.string(value, style: .pretty)) == value)
    }

    @Test func keepsKeyOrderAndComparesObjectsByContent() throws {
        let value = try parse(#"{"z": 1, "a": 2}"#)
        #expect(value.objectValue?.keys == ["z", "a"])
        #expect(value == (try parse(#"{"a": 2, "z": 1}"#)))
    }

    @Test func reportsWhereASyntaxErrorIs() {
        #expect(syntaxError(Array("{\n  \"a\": [1, 2,]\n}".utf8)) == "2:13: $.a: a trailing comma is not allowed before ']'")
        #expect(syntaxError(Array("{\"a\": [1 2]}".utf8)) == "1:10: $.a[0]: unexpected '2'; expected ',' or ']' in the array")
        #expect(syntaxError(Array("{\"a\": tru}".utf8)) == "1:7: $.a: unexpected '}'; expected 'true'")
        #expect(syntaxError(Array("[1] 2".utf8)) == "1:5: $: unexpected '2' after the end of the JSON value")
        #expect(syntaxError(Array("".utf8)) == "1:1: $: the document is empty; expected a JSON value")
    }

    @Test func reportsTruncatedDocuments() {
        #expect(
            syntaxError(Array("{\"pages\": [{\"id\": \"a\"".utf8))
                == "1:12: $.pages[0]: the document ends early (truncated JSON): the object opened here is not closed")
    }

    @Test func countsColumnsInCharacters() {
        #expect(syntaxError(Array("[\"日本\", x]".utf8)) == "1:8: $[1]: unexpected 'x'; expected a JSON value")
    }

    @Test func rejectsInvalidUTF8WithItsPosition() {
        #expect(syntaxError([0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D]) == "1:4: $[0]: invalid UTF-8: byte 0xFF cannot start a character")
        #expect(syntaxError([0x22, 0xC0, 0xAF, 0x22]) == "1:2: $: invalid UTF-8: byte 0xC0 cannot start a character")
        #expect(syntaxError([0x22, 0xE0, 0x80, 0x80, 0x22]) == "1:2: $: invalid UTF-8: an overlong or surrogate encoding")
        #expect(syntaxError([0x22, 0xED, 0xA0, 0x80, 0x22]) == "1:2: $: invalid UTF-8: an overlong or surrogate encoding")
    }

    @Test func rejectsLoneSurrogatesAndLeadingZeros() {
        #expect(syntaxError(Array(#"["\ud800"]"#.utf8))?.hasSuffix("a \\u escape holds a lone high surrogate") == true)
        #expect(syntaxError(Array("[01]".utf8))?.hasSuffix("a number cannot start with a leading zero") == true)
    }

    @Test func capsDepthStringLengthAndDocumentSize() {
        let limits = JSONLimits(documentBytes: 100, depth: 3, stringBytes: 4)
        #expect(syntaxError(Array("[[[[1]]]]".utf8), limits: limits) == "1:4: $[0][0][0]: nesting is deeper than 3 levels")
        #expect(syntaxError(Array(#"["abcde"]"#.utf8), limits: limits) == "1:2: $[0]: a string is longer than 4 bytes")
        #expect(syntaxError(Array(repeating: 0x20, count: 101), limits: limits) == "1:1: $: the document is 101 bytes; the limit is 100")
    }

    @Test func deepNestingIsAnErrorNotAStackOverflow() {
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        #expect(syntaxError(deep)?.contains("nesting is deeper than 64 levels") == true)
    }

    @Test func remembersDuplicateKeys() throws {
        let result = try JSONParser.parse(#"{"a": 1, "a": 2}"#)
        #expect(result.value == ["a": 1])
        #expect(result.duplicateKeys.map(\.offset) == [9])
    }

    @Test func locatesEveryKeyAndValue() {
        let bytes = Array("{\"a\": [10, {\"b\": null}]}".utf8)
        let inner: JSONPath = JSONPath.root.appending("a").appending(1).appending("b")
        let missing: JSONPath = JSONPath.root.appending("a").appending(5)
        let locations = JSONParser.locate(bytes, paths: [inner, missing])
        #expect(locations.valueOffset(inner) == 17)
        #expect(locations.keyOffset(inner) == 12)
        #expect(locations.valueOffset(missing) == 6)  // a missing element: its array
    }

    @Test func pathsQuoteKeysThatAreNotPlainNames() {
        #expect((JSONPath.root + "pages" + 2 + "a b").description == #"$.pages[2]["a b"]"#)
    }
}
