/// Which of the SDK's three calling styles a command goes through (`--style`).
enum ClientStyle: String, CaseIterable {
    case async
    case callback
    case sync
}
