import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One call of either client: one HTTP exchange, or several chained (the pages of a
/// listing, the fetch after a conflict), all under one ``NotesRequest`` handle, so
/// that cancelling stops whichever step is running.
struct NotesOperation<Value: Sendable>: Sendable {
    typealias Completion = @Sendable (Result<Value, NotesClientError>) -> Void

    let start: @Sendable (RequestEngine, NotesRequest, @escaping Completion) -> Void

    /// One request; `decode` reads every answer, whatever its status.
    static func exchange(
        _ request: URLRequest, retry: RetryPolicy,
        decode: @escaping @Sendable (HTTPAnswer) throws(NotesClientError) -> Value
    ) -> NotesOperation {
        NotesOperation { engine, handle, completion in
            engine.exchange(
                request, retry: retry, handle: handle, decode: decode, completion: completion)
        }
    }

    /// An operation that sends nothing and gives `value`.
    static func value(_ value: Value) -> NotesOperation {
        NotesOperation { _, _, completion in completion(.success(value)) }
    }

    /// Runs `next` with this operation's value.
    func flatMap<Next: Sendable>(
        _ next: @escaping @Sendable (Value) -> NotesOperation<Next>
    ) -> NotesOperation<Next> {
        NotesOperation<Next> { engine, handle, completion in
            self.start(engine, handle) { result in
                switch result {
                case .success(let value): next(value).start(engine, handle, completion)
                case .failure(let error): completion(.failure(error))
                }
            }
        }
    }

    /// Runs the operation `handler` gives for a failure (if any) instead of failing.
    func recover(
        _ handler: @escaping @Sendable (NotesClientError) -> NotesOperation<Value>?
    ) -> NotesOperation<Value> {
        NotesOperation { engine, handle, completion in
            self.start(engine, handle) { result in
                if case .failure(let error) = result, let next = handler(error) {
                    next.start(engine, handle, completion)
                } else {
                    completion(result)
                }
            }
        }
    }

    /// Turns the outcome, success or failure, into another.
    func mapResult<Next: Sendable>(
        _ transform: @escaping @Sendable (Outcome<Value>) -> Outcome<Next>
    ) -> NotesOperation<Next> {
        NotesOperation<Next> { engine, handle, completion in
            self.start(engine, handle) { completion(transform($0)) }
        }
    }
}

/// What a call ends with.
typealias Outcome<Value> = Result<Value, NotesClientError>
