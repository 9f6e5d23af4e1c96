/// How a legacy answer is written: the protocol's `type` parameter.
///
/// ```swift
/// WireFormat.xml.rawValue     // "XML", as sent in `type=XML`
/// WireFormat.xml.contentType  // "text/xml; charset=utf-8"
/// ```
public enum WireFormat: String, Sendable, Hashable, CaseIterable {
    /// `type=JSON` (also the server's answer to a missing or empty `type`).
    case json = "JSON"
    /// `type=XML`.
    case xml = "XML"

    /// The `Content-Type` of an answer in this format.
    public var contentType: String {
        switch self {
        case .json: "application/json; charset=utf-8"
        case .xml: "text/xml; charset=utf-8"
        }
    }
}
