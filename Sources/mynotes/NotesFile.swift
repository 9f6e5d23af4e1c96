import CommandLineSupport
import Foundation
import MyNotesKit
import TextEscaping

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The seed app's local files, `Notes.json` and `Notes.xml`: what `export` writes,
/// what `import` reads, and what `--format json|xml` prints.
enum NotesFile {
    /// A note read from a file; its ID is the old app's, not the server's.
    struct Entry: Equatable {
        var sourceID: Int?
        /// Where it is in the file, from 1.
        var position: Int
        var date: NoteDate
        var content: String

        /// How messages name it: by the file's ID, else by position.
        var label: String { NotesFile.label(id: sourceID, position: position) }
    }

    /// A note of the file that cannot be imported as it is, and why.
    struct Rejected: Equatable {
        var label: String
        var position: Int
        var reason: String
    }

    /// What a file holds: the notes to import, and those that cannot be.
    struct Contents {
        var entries: [Entry] = []
        var rejected: [Rejected] = []
    }

    static func label(id: Int?, position: Int) -> String {
        id.map { "ID \($0)" } ?? "#\(position)"
    }

    /// `{"Record":[{"ID":12,"CDate":"2026-11-29","Content":"…"}]}`, one note a line; IDs
    /// are numbers (the legacy wire format's strings are awkward in `jq`), which `import`
    /// and the old app's readers take as well.
    static func json(_ notes: [Note]) -> String {
        guard !notes.isEmpty else { return "{\"Record\":[]}\n" }
        let records = notes.map {
            "{\"ID\":\($0.id),\"CDate\":\(JSONText.quoted($0.date.description)),\"Content\":\(JSONText.quoted($0.content))}"
        }
        return "{\"Record\":[\n" + records.joined(separator: ",\n") + "\n]}\n"
    }

    /// `<Notes><Note id="12"><CDate>…</CDate><Content>…</Content><UserID>…</UserID></Note></Notes>`.
    static func xml(_ notes: [Note], userID: String) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Notes>\n"
        let user = XMLText.escaped(userID)
        for note in notes {
            let date = XMLText.escaped(note.date.description)
            text += "<Note id=\"\(note.id)\"><CDate>\(date)</CDate>"
            text +=
                "<Content>\(XMLText.escaped(note.content))</Content><UserID>\(user)</UserID></Note>\n"
        }
        return text + "</Notes>\n"
    }

    /// Reads either format, told apart by the first character that is not white space.
    static func read(_ data: Data) throws(CommandFailure) -> Contents {
        let first = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        switch first {
        case UInt8(ascii: "<"): return try readXML(data)
        case UInt8(ascii: "{"), UInt8(ascii: "["): return try readJSON(data)
        default: throw CommandFailure("not a Notes.json or Notes.xml file")
        }
    }

    private static func readJSON(_ data: Data) throws(CommandFailure) -> Contents {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw CommandFailure("not valid JSON" + (detail.map { ": \($0)" } ?? ""))
        }
        let records: [Any]
        if let object = root as? [String: Any], let list = object["Record"] as? [Any] {
            records = list
        } else if let list = root as? [Any] {
            records = list
        } else {
            throw CommandFailure("JSON is neither {\"Record\":[…]} nor an array of notes")
        }
        var contents = Contents()
        for (index, record) in records.enumerated() {
            guard let fields = record as? [String: Any] else {
                contents.rejected.append(
                    Rejected(
                        label: label(id: nil, position: index + 1), position: index + 1,
                        reason: "not a JSON object"))
                continue
            }
            let id: Int? =
                switch fields["ID"] {
                case let text as String: Int(text)
                case let number as NSNumber: number.intValue
                default: nil
                }
            add(
                position: index + 1, id: id, date: fields["CDate"] as? String,
                content: fields["Content"] as? String, to: &contents)
        }
        return contents
    }

    private static func readXML(_ data: Data) throws(CommandFailure) -> Contents {
        if let hazard = data.xmlParserHazard { throw CommandFailure("not valid XML: \(hazard)") }
        let reader = NotesXMLReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        // Some XMLParser builds accept a document cut short: the root's end tag proves it whole.
        guard parser.parse(), reader.closedRoot else {
            throw CommandFailure(
                "not valid XML at line \(parser.lineNumber), column \(parser.columnNumber): "
                    + xmlProblem((parser.parserError as NSError?)?.code))
        }
        var contents = Contents()
        for (index, fields) in reader.notes.enumerated() {
            add(
                position: index + 1, id: fields["id"].flatMap { Int($0) }, date: fields["CDate"],
                content: fields["Content"], to: &contents)
        }
        return contents
    }

    /// The parser's complaint in words, for the codes people meet most (libxml2's
    /// numbers, which XMLParser reports), else the code.
    private static func xmlProblem(_ code: Int?) -> String {
        switch code {
        case 5?, nil: return "the document ends before its root element does"
        case 4?: return "the document is empty"
        case 76?: return "an end tag does not match the element it closes"
        case 85?: return "the elements are not properly nested"
        case 73?: return "a tag is not closed with '>'"
        case 23?, 26?, 27?: return "an entity (&…;) is malformed or unknown; write & as &amp;"
        case 39?, 40?, 41?, 42?: return "an attribute is malformed"
        case 9?: return "it contains a character XML does not allow"
        case 68?: return "a name is missing where a tag or an entity needs one"
        case let code?: return "malformed (XML parser error \(code))"
        }
    }

    /// A note as an entry, or as rejected with the reason: one bad note does not keep
    /// the others out, and every bad one is named.
    private static func add(
        position: Int, id: Int?, date: String?, content: String?, to contents: inout Contents
    ) {
        let reason: String
        if let date, let noteDate = NoteDate(date) {
            if let content {
                contents.entries.append(
                    Entry(sourceID: id, position: position, date: noteDate, content: content))
                return
            }
            reason = "no Content"
        } else {
            reason = "CDate '\(date ?? "")' is not yyyy-MM-dd[ HH:mm[:ss]]"
        }
        contents.rejected.append(
            Rejected(label: label(id: id, position: position), position: position, reason: reason))
    }
}

/// Collects `<Note id="…">` elements and their `CDate`, `Content` and `UserID` texts.
private final class NotesXMLReader: NSObject, XMLParserDelegate {
    var notes: [[String: String]] = []
    private(set) var closedRoot = false
    private var depth = 0
    private var current: [String: String]?
    private var text = ""

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        depth += 1
        if elementName == "Note" {
            current = [:]
            if let id = attributes["id"] ?? attributes["ID"] { current?["id"] = id }
        }
        text = ""
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
        depth -= 1
        if depth == 0 { closedRoot = true }
        switch elementName {
        case "Note":
            if let current { notes.append(current) }
            current = nil
        case "CDate", "Content", "UserID", "ID":
            current?[elementName == "ID" ? "id" : elementName] = text
        default: break
        }
        text = ""
    }
}
