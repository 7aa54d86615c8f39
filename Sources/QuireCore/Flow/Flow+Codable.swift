/// `Flow` through `Codable`, for Swift programs that already use `JSONDecoder`. Decoding a flow
/// runs the same validation as `Flow.load` (without source positions, which Foundation's decoder
/// does not give; the JSON paths are exact).
extension Flow: Codable {
    public init(from decoder: any Decoder) throws {
        let document = try JSONValue(from: decoder)
        var reader = DocumentReader(file: "<decoded flow>", bytes: JSONWriter.data(document))
        guard let flow = Flow.load(document, at: .root, reader: &reader) else {
            throw DocumentError(reader.diagnostics())
        }
        self = flow
    }

    /// Encodes the flow's document.
    public func encode(to encoder: any Encoder) throws {
        try document.encode(to: encoder)
    }
}
