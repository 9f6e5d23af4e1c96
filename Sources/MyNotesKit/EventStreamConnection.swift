import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP exchange of a stream, read as it arrives: the answer's head, then its body in
/// chunks, then the end. URLSession's delegate calls (the only streaming read that works
/// on Linux too, where `URLSession.bytes` does not exist) queue here for one reader.
///
/// Ends its exchange when released, so a loop that stops reading leaves no connection open.
final class EventStreamConnection: @unchecked Sendable {
    /// What arrived, in order; `end` comes last and then again on every further read.
    enum Item: Sendable {
        case head(status: Int, headers: [String: String])
        case bytes(Data)
        /// The exchange ended: `nil` when the server closed the body normally.
        case end(URLError?)
    }

    private let session: URLSession
    private let task: URLSessionDataTask
    private let inbox = Inbox()

    /// Starts `request`; `idleTimeout` ends the exchange after that long with no byte.
    init(_ request: URLRequest, idleTimeout: Duration) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout.seconds
        configuration.timeoutIntervalForResource = .greatestFiniteMagnitude
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration, delegate: inbox, delegateQueue: nil)
        task = session.dataTask(with: request)
        task.resume()
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// The next item; cancelling the waiting task ends the exchange (then `.end`).
    func next() async -> Item {
        await withTaskCancellationHandler {
            await inbox.next()
        } onCancel: {
            task.cancel()
        }
    }

    /// Ends the exchange now.
    func cancel() {
        task.cancel()
    }

    /// Where URLSession's delegate calls leave what they bring.
    private final class Inbox: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // Guarded by `lock`: URLSession's delegate queue writes, the reader's task reads.
        private let lock = NSLock()
        private var items: [Item] = []
        private var ended: Item?
        private var reader: CheckedContinuation<Item, Never>?

        func next() async -> Item {
            await withCheckedContinuation { continuation in
                let ready: Item? = lock.withLock {
                    if !items.isEmpty { return items.removeFirst() }
                    if let ended { return ended }
                    reader = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }

        private func deliver(_ item: Item, final: Bool = false) {
            let waiting: CheckedContinuation<Item, Never>? = lock.withLock {
                guard ended == nil else { return nil }
                if final { ended = item }
                if let reader {
                    self.reader = nil
                    return reader
                }
                if !final { items.append(item) }
                return nil
            }
            waiting?.resume(returning: item)
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask,
            didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            if let http = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for case (let name as String, let value as String) in http.allHeaderFields {
                    headers[name.lowercased()] = value
                }
                deliver(.head(status: http.statusCode, headers: headers))
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data)
        {
            deliver(.bytes(data))
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
        ) {
            let failure = error.map { $0 as? URLError ?? URLError(.unknown) }
            deliver(.end(failure), final: true)
        }
    }
}
