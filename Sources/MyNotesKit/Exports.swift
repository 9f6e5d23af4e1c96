// `ResultCode`, `MessageLanguage`, `NoteDate` and `WireFormat` appear in MyNotesKit's API
// (notes, errors, configuration), so an app that imports MyNotesKit gets them without
// importing MyNotesProtocol too.
@_exported import MyNotesProtocol
