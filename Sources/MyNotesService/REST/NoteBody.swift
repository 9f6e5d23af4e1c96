import MyNotesAPI

/// A request body that writes a note: its content and date as the client sent them,
/// `nil` when left out.
protocol NoteBody: Decodable {
    var noteContent: String? { get }
    var noteDate: String? { get }
}

extension APINewNote: NoteBody {
    var noteContent: String? { content }
    var noteDate: String? { date }
}

extension APINoteReplacement: NoteBody {
    var noteContent: String? { content }
    var noteDate: String? { date }
}

extension APINotePatch: NoteBody {
    var noteContent: String? { content }
    var noteDate: String? { date }
}
