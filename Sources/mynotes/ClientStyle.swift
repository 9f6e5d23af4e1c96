/// Which of the SDK's three calling styles a command goes through (`--style`).
enum ClientStyle: String, CaseIterable {
    case async
    case callback
    case sync
}

/// Which protocol a command speaks (`--api`, `MYNOTES_API`, the config file).
enum ServerAPI: String, CaseIterable, Codable {
    /// `webservice.php`, with ``NotesClient``.
    case legacy
    /// REST API v1, with ``NotesAPIClient``.
    case rest
}
