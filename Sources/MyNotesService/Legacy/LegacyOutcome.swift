import HTTPCore
import MyNotesDomain
import MyNotesProtocol

/// What a legacy request came to, before it is written as JSON or XML.
enum LegacyOutcome {
    /// A query's whole answer, small enough to hold.
    case notes([Note])
    /// An answer already written (a query's, perhaps kept from before).
    case answered(HTTPResponse)
    /// A query's answer too large to hold, streamed as the client reads it.
    case notePages(LegacyNotePages)
    case added(id: Int64)
    case done
    case failure(ResultCode)
}
