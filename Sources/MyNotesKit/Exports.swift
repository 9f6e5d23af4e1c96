// `ResultCode` and `MessageLanguage` appear in MyNotesKit's API (errors, configuration),
// so an app that imports MyNotesKit gets them without importing MyNotesProtocol too.
@_exported import MyNotesProtocol
