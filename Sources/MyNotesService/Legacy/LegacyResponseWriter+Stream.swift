import BoundedExecution
import HTTPCore
import MyNotesDomain

/// A query's answer written as the client reads it: the same opening, records and
/// closing as the answer held in memory, so the same bytes, in chunks of about
/// ``chunkBytes``. The producer waits while the client's buffer is full and stops when the
/// client goes away, so a slow or vanished client holds one page and one chunk at most.
extension LegacyResponseWriter {
    static let chunkBytes = 32 << 10

    /// Where producers run: a thread of their own, not Swift's cooperative pool (an
    /// unstructured task does not keep the responder's executor), so that whatever blocks
    /// that pool cannot stall an answer. A producer only serializes a page at a time and
    /// waits for the client or the store in between, so one thread serves them all.
    private static let producers = BoundedExecutor(
        name: "legacy-stream", limits: ExecutorLimits(threads: 1, queueLimit: 1))

    func streamedResponse(_ pages: LegacyNotePages) -> HTTPResponse {
        let body = StreamingBody()
        let writer = self
        Task(executorPreference: Self.producers) { await writer.produce(pages, into: body) }
        return HTTPResponse(status: .ok, contentType: format.contentType, stream: body)
    }

    private func produce(_ pages: LegacyNotePages, into body: StreamingBody) async {
        var out: [UInt8] = []
        out.reserveCapacity(Self.chunkBytes * 2)
        appendQueryOpening(to: &out)
        var page = pages.first
        var first = true
        do {
            while true {
                for note in page {
                    appendRecord(note, first: first, to: &out)
                    first = false
                    if out.count >= Self.chunkBytes {
                        try await body.write(out)
                        out.removeAll(keepingCapacity: true)
                    }
                }
                guard !LegacyNotePages.isLast(page), let last = page.last else { break }
                page = try await pages.page(after: last)
            }
            appendQueryClosing(to: &out)
            try await body.write(out)
        } catch let error as NoteError {
            // Too late for a ResultCode: the answer ends cut short, which no JSON or XML
            // parser takes for a whole one.
            pages.logger.error(
                "legacy query failed while streaming",
                ["action": "query", "cause": "\(error)"])
        } catch {
            // The client went away (or the server stops): nobody is left to answer.
        }
        body.finish()
    }
}
