import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A legacy answer in XML, read by Foundation's `XMLParser` as any iOS client reads it.
final class XMLReply: NSObject, XMLParserDelegate {
    /// The text of `<Response>`'s own elements: `ResultCode`, `Message`, `ID`.
    private(set) var fields: [String: String] = [:]
    /// Each `<Note>`'s elements and their text.
    private(set) var notes: [[String: String]] = []
    private(set) var hasRecord = false

    private var text = ""
    private var note: [String: String]?

    struct Malformed: Error { let error: Error? }

    static func parse(_ bytes: [UInt8]) throws -> XMLReply {
        let reply = XMLReply()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = reply
        guard parser.parse() else { throw Malformed(error: parser.parserError) }
        return reply
    }

    var resultCode: Int? { fields["ResultCode"].flatMap { Int($0) } }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        text = ""
        if elementName == "Note" { note = [:] }
        if elementName == "Record" { hasRecord = true }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
        qualifiedName: String?
    ) {
        switch elementName {
        case "Note":
            if let note { notes.append(note) }
            note = nil
        case "Record", "Response": break
        default:
            if note != nil { note?[elementName] = text } else { fields[elementName] = text }
        }
        text = ""
    }
}
