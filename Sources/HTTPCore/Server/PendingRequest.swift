/// A request being read: created when its request line arrives, filled while its
/// body streams in, answered once the body is complete. One connection's thread
/// owns it from start to completion, so it needs no lock.
final class PendingRequest {
    let target: [UInt8]
    var method = HTTPMethod.get
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    var headersRead = false
    /// Set when the request is refused while its body still arrives; answered at the end.
    var rejection: HTTPStatus?
    /// Set once the responder runs in a task; its answer is queued when the connection resumes.
    var deferred: DeferredResponse?
    /// Body bytes received so far, kept or thrown away.
    var received = 0
    /// The connection it arrived on, whose deadline follows the request's progress.
    let connection: ConnectionRecord?

    init(target: [UInt8], connection: ConnectionRecord?) {
        self.target = target
        self.connection = connection
    }

}
