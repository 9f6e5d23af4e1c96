/// One event of a `text/event-stream`, as the HTML standard's parser dispatches it.
///
/// ```swift
/// // id: 42\nevent: change\ndata: {"cursor":"42",…}\n\n
/// ServerSentEvent(type: "change", data: #"{"cursor":"42",…}"#, lastEventID: "42")
/// ```
package struct ServerSentEvent: Sendable, Hashable {
    /// The `event:` field; `message` when there was none.
    package var type: String
    /// The `data:` lines, joined by line feeds.
    package var data: String
    /// The last `id:` seen up to and including this event (ids persist across events).
    package var lastEventID: String

    package init(type: String, data: String, lastEventID: String) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}
