/// The response format the client asks for (the protocol's `type` parameter).
public enum WireFormat: String, Sendable, Hashable, CaseIterable {
    /// `type=JSON`, read with `JSONDecoder`.
    case json = "JSON"
    /// `type=XML`, read with FoundationXML's `XMLParser`.
    case xml = "XML"
}
