import Dispatch

extension StreamingBody {
    /// Reads the whole body as a connection would, blocking the calling thread while the
    /// producer is behind; `nil` when the stream ends without finishing. For a transport
    /// with no socket (a test's in-process connection); never call it from a task.
    ///
    /// ```swift
    /// if let stream = response.stream, let body = stream.drain() { … }
    /// ```
    public func drain() -> [UInt8]? {
        let ready = DispatchSemaphore(value: 0)
        attach { ready.signal() }
        var body: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let outcome = buffer.withUnsafeMutableBytes { read(into: $0) }
            switch outcome {
            case .bytes(let count): body.append(contentsOf: buffer[..<count])
            case .empty: ready.wait()
            case .finished:
                end(.finished)
                return body
            case .abandoned: return nil
            }
        }
    }
}
