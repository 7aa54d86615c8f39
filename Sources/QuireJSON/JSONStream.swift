/// The one-pass reader of `JSONScanning` for the package's other modules (the harness finds a
/// step's bytes with it to rewrite them, `quire test --update`): a document's bytes read in
/// order, as strictly as `JSONParser`, with values that are free-form JSON built as `JSONValue`s.
///
/// It only reads: a syntax error, a broken `JSONLimits` cap or a repeated key throws
/// `JSONStream.Failure`, and the caller lets `DocumentReader.parse` (`JSONParser`) read the
/// document again to name what is wrong.
package struct JSONStream: JSONScanning {
    /// The document is not well-formed JSON, or breaks a limit: `JSONParser` says why.
    package struct Failure: Error {}

    package let bytes: UnsafeBufferPointer<UInt8>
    package let limits: JSONLimits
    package let prefix = JSONPath.root
    package var at = 0
    package var depth = 0
    package var steps: [JSONStep] = []
    package var scratch: [UInt8] = []
    package var usedScratch = false
    package var reportsDuplicates = true
    /// Where `JSONScanning` records repeated keys (`read()` throws for them instead).
    package var document = DocumentReader(file: "", bytes: [])

    /// `bytes` must stay valid while the stream is used.
    package init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits = .default) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Whether a document of `count` bytes starting with `bytes` may be read at all: not too big,
    /// and UTF-8 (`JSONParser` names any other encoding).
    package static func mayRead(_ bytes: [UInt8], limits: JSONLimits = .default) -> Bool {
        JSONParser.mayScan(bytes, limits: limits)
    }

    /// The byte offset of the next value (whitespace stepped over).
    package mutating func offset() -> Int {
        skipWhitespace()
        return at
    }

    /// Goes to `offset`, where a value starts, to read again what `pass()` stepped over.
    package mutating func move(to offset: Int) {
        at = offset
    }

    /// The byte offset just after what was read last.
    package var position: Int { at }

    /// Steps over a UTF-8 byte order mark and whitespace; throws for an empty document.
    package mutating func beginDocument() throws(Failure) {
        do { try startDocument() } catch { throw Failure() }
    }

    /// Only whitespace may follow the document's value.
    package mutating func endDocument() throws(Failure) {
        do { try finishDocument() } catch { throw Failure() }
    }

    /// The next byte that is not whitespace.
    package mutating func nextByte() throws(Failure) -> UInt8 {
        do { return try peek() } catch { throw Failure() }
    }

    /// Reads `{`; false for an empty object.
    package mutating func enterObject() throws(Failure) -> Bool {
        do { return try beginObject() } catch { throw Failure() }
    }

    /// Reads `[`; false for an empty array.
    package mutating func enterArray() throws(Failure) -> Bool {
        do { return try beginArray() } catch { throw Failure() }
    }

    /// After a member: true when another follows, false after the closing `}`.
    package mutating func moreMembers() throws(Failure) -> Bool {
        do { return try nextMember() } catch { throw Failure() }
    }

    /// After an element: true when another follows, false after the closing `]`.
    package mutating func moreElements() throws(Failure) -> Bool {
        do { return try nextElement() } catch { throw Failure() }
    }

    /// A member's key, read up to and including its colon.
    package mutating func key() throws(Failure) -> String {
        do { return try memberName().name } catch { throw Failure() }
    }

    /// Steps over the value here, checked as `read()` checks it but not built; a repeated key is
    /// not looked for (read the value again to find one).
    package mutating func pass() throws(Failure) {
        do { try skip() } catch { throw Failure() }
    }

    /// The value here as a `JSONValue`, as `value()` builds it but with no path kept: a key
    /// repeated in an object throws too (the caller reads the document again to name it).
    package mutating func read() throws(Failure) -> JSONValue {
        do { return try value(keepingPath: false) } catch { throw Failure() }
    }
}
