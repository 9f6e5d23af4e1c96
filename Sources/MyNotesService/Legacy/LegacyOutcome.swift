import MyNotesProtocol
import Storage

/// What a legacy request came to, before it is written as JSON or XML.
enum LegacyOutcome {
    case notes([Note])
    case added(id: Int64)
    case done
    case failure(ResultCode)
}
