import MyNotesDomain
import TextEscaping

/// A query's answer in three pieces: its opening, one record per note, its closing. The
/// answer held in memory and the streamed one are both made of them, so the two are the
/// same bytes.
extension LegacyResponseWriter {
    func appendQuery(_ notes: [Note], to out: inout [UInt8]) {
        appendQueryOpening(to: &out)
        for (index, note) in notes.enumerated() {
            appendRecord(note, first: index == 0, to: &out)
        }
        appendQueryClosing(to: &out)
    }

    func appendQueryOpening(to out: inout [UInt8]) {
        switch format {
        case .json: out.append(contentsOf: #"{"ResultCode":0,"Record":["#.utf8)
        case .xml:
            out.append(contentsOf: #"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)
            out.append(contentsOf: "\n<Response><ResultCode>0</ResultCode><Record>".utf8)
        }
    }

    /// One note; `first` tells JSON whether a comma separates it from the one before.
    func appendRecord(_ note: Note, first: Bool, to out: inout [UInt8]) {
        switch format {
        case .json:
            if !first { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"ID":""#.utf8)
            Self.appendDecimal(note.id, to: &out)
            // The date's digits and separators need no escaping, in JSON or in XML.
            out.append(contentsOf: #"","CDate":""#.utf8)
            note.date.appendText(to: &out)
            out.append(contentsOf: #"","Content":"#.utf8)
            JSONText.appendString(note.content, to: &out)
            out.append(UInt8(ascii: "}"))
        case .xml:
            out.append(contentsOf: "<Note><ID>".utf8)
            Self.appendDecimal(note.id, to: &out)
            out.append(contentsOf: "</ID><CDate>".utf8)
            note.date.appendText(to: &out)
            out.append(contentsOf: "</CDate><Content>".utf8)
            XMLText.appendEscaped(note.content, to: &out)
            out.append(contentsOf: "</Content></Note>".utf8)
        }
    }

    func appendQueryClosing(to out: inout [UInt8]) {
        switch format {
        case .json: out.append(contentsOf: "]}".utf8)
        case .xml: out.append(contentsOf: "</Record></Response>\n".utf8)
        }
    }

    /// Room for the whole answer up front, so a long list is not copied as it grows.
    static func estimatedSize(of notes: [Note]) -> Int {
        notes.reduce(64) { $0 + $1.content.utf8.count + $1.date.utf8Count + 64 }
    }
}
