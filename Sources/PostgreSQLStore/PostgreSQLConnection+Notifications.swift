internal import CLibPQ
import MyNotesDomain

extension PostgreSQLConnection {
    /// The connection's socket, to wait on for what the server sends; -1 when closed.
    var socket: Int32 { PQsocket(handle) }

    /// Reads what the server has sent and returns the payloads of the notifications
    /// (`NOTIFY`, `pg_notify`) received, oldest first. Throws when the connection is lost.
    func receivedNotifications() throws(PostgreSQLError) -> [String] {
        guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else {
            throw PostgreSQLError(
                sqlState: PostgreSQLError.connectionFailure,
                message: String(cString: PQerrorMessage(handle)), sql: nil)
        }
        var payloads: [String] = []
        while let notification = PQnotifies(handle) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return payloads
    }
}
