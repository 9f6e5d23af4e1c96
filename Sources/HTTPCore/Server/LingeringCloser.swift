import BoundedExecution
import Foundation
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// Closes refused connections the way nginx's lingering close does: after the answer,
/// the write side is shut (the client sees the answer end), and what the client still
/// sends is read and thrown away until it closes its side, a byte bound, or a time limit.
///
/// Most clients send the whole request body before they read. Closing a socket with
/// unread bytes in it makes the kernel reset the connection, and the client then sees
/// `Connection reset by peer` or `Broken pipe` instead of the 413 it was sent.
///
/// The event loop closes its descriptor itself; the closer keeps a duplicate of it, which
/// keeps the socket open. One thread, started with the first such socket, polls them all;
/// their number is bounded, and past the bound a socket is closed at once.
final class LingeringCloser: Sendable {
    private struct Lingering {
        var deadline: Int64
        var discarded = 0
    }

    private struct State {
        var sockets: [Int32: Lingering] = [:]
        var started = false
        var stopped = false
    }

    static let maxSockets = 1_024

    private let maxDiscardedBytes: Int
    private let duration: Int64
    private let now: @Sendable () -> Int64
    private let state = Lock(State())
    /// A pipe whose read end is in the poll set: a byte wakes the thread.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init(maxDiscardedBytes: Int, duration: Duration, now: @escaping @Sendable () -> Int64) {
        self.maxDiscardedBytes = maxDiscardedBytes
        self.duration = ConnectionWatchdog.nanoseconds(duration)
        self.now = now
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        } else {
            ends = [-1, -1]
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    deinit {
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// Takes over a duplicate of `descriptor`, which its event loop is about to close.
    func adopt(_ descriptor: Int32) {
        guard wakeRead >= 0 else { return }
        let copy = dup(descriptor)
        guard copy >= 0 else { return }
        shutdown(copy, Int32(SHUT_WR))
        let (taken, start) = state.withLock { state -> (Bool, Bool) in
            guard !state.stopped, state.sockets.count < Self.maxSockets else {
                return (false, false)
            }
            state.sockets[copy] = Lingering(deadline: now() + duration)
            defer { state.started = true }
            return (true, !state.started)
        }
        guard taken else {
            close(copy)
            return
        }
        if start {
            let thread = Thread.named("http-linger") { [self] in run() }
            thread.start()
        } else {
            wake()
        }
    }

    /// Ends the thread, which closes every lingering socket (it alone may: it could be
    /// reading one, and a descriptor closed under it could be reused by another file).
    func stop() {
        state.withLock { $0.stopped = true }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func run() {
        var scratch = [UInt8](repeating: 0, count: 64 << 10)
        while let watched = state.withLock({ $0.stopped ? nil : Array($0.sockets.keys) }) {
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            fds += watched.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            // With sockets to watch, look at the clock ten times a second for deadlines.
            _ = poll(&fds, nfds_t(fds.count), watched.isEmpty ? -1 : 100)
            while read(wakeRead, &scratch, scratch.count) > 0 {}
            var ended: Set<Int32> = []
            var received: [Int32: Int] = [:]
            for entry in fds.dropFirst() where entry.revents != 0 {
                var total = 0
                while total <= maxDiscardedBytes {
                    let count = recv(entry.fd, &scratch, scratch.count, Int32(MSG_DONTWAIT))
                    if count > 0 {
                        total += count
                    } else {
                        if count == 0 || (errno != EAGAIN && errno != EINTR) {
                            ended.insert(entry.fd)
                        }
                        break
                    }
                }
                received[entry.fd] = total
            }
            let now = now()
            let closing = state.withLock { state -> [Int32] in
                var closing: [Int32] = []
                for (socket, lingering) in state.sockets {
                    let discarded = lingering.discarded + received[socket, default: 0]
                    if ended.contains(socket) || discarded > maxDiscardedBytes
                        || lingering.deadline <= now
                    {
                        state.sockets[socket] = nil
                        closing.append(socket)
                    } else {
                        state.sockets[socket]?.discarded = discarded
                    }
                }
                return closing
            }
            for socket in closing { close(socket) }
        }
        let remaining = state.withLock { state in
            defer { state.sockets = [:] }
            return Array(state.sockets.keys)
        }
        for socket in remaining { close(socket) }
    }
}
