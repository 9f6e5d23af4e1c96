import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads a `type=XML` answer with `XMLParser`:
/// `<Response><ResultCode>…</ResultCode>[<Message>…</Message>][<ID>…</ID>][<Record><Note>…</Note>…</Record>]</Response>`.
final class XMLResponseParser: NSObject, XMLParserDelegate {
    private var path: [String] = []
    private var text = ""
    private var resultCode: Int?
    private var message: String?
    private var id: Int?
    private var notes: [Note]?
    private var noteFields: [String: String] = [:]
    private var failure: NotesClientError?
    // Some XMLParser builds accept a document cut short; the root's end tag proves it whole.
    private var closedRoot = false

    static func parse(_ data: Data) throws(NotesClientError) -> LegacyResponse {
        if let hazard = data.xmlParserHazard {
            throw .invalidResponse(.malformed(format: .xml, detail: hazard))
        }
        let delegate = XMLResponseParser()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if let failure = delegate.failure { throw failure }
        guard parsed else {
            let detail = parser.parserError.map { String(describing: $0) } ?? "not XML"
            throw .invalidResponse(
                .malformed(format: .xml, detail: "line \(parser.lineNumber): \(detail)"))
        }
        guard delegate.closedRoot else {
            throw .invalidResponse(.malformed(format: .xml, detail: "the document ends early"))
        }
        guard let code = delegate.resultCode else {
            throw .invalidResponse(.malformed(format: .xml, detail: "no <ResultCode>"))
        }
        return LegacyResponse(
            resultCode: code, message: delegate.message, id: delegate.id, notes: delegate.notes)
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        path.append(elementName)
        text = ""
        if path == ["Response", "Record"] { notes = notes ?? [] }
        if path == ["Response", "Record", "Note"] { noteFields = [:] }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        text += String(decoding: block, as: UTF8.self)
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
        qualifiedName: String?
    ) {
        switch path {
        case ["Response", "ResultCode"]: resultCode = Int(text)
        case ["Response", "Message"]: message = text
        case ["Response", "ID"]: id = Int(text)
        case ["Response", "Record", "Note", "ID"], ["Response", "Record", "Note", "CDate"],
            ["Response", "Record", "Note", "Content"]:
            noteFields[elementName] = text
        case ["Response", "Record", "Note"]:
            do {
                let note = try LegacyResponse.makeNote(
                    id: noteFields["ID"].flatMap { Int($0) }, date: noteFields["CDate"],
                    content: noteFields["Content"])
                notes?.append(note)
            } catch {
                failure = error
                parser.abortParsing()
            }
        case ["Response"]: closedRoot = true
        default: break
        }
        path.removeLast()
        text = ""
    }
}
