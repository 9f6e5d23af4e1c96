import MyNotesKit

extension ReplicaNote {
    /// The note for the printers; one not synced yet has ID ``LocalCopy/unsyncedID``.
    var printable: Note {
        note ?? Note(id: LocalCopy.unsyncedID, date: date, content: content)
    }
}
