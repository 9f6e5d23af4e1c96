import BoundedExecution
import CH2O
import Dispatch
import Foundation
import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// One of the server's event loops: an h2o loop (epoll) on a thread of its own, accepting
/// from the listening socket and serving the connections it accepted, start to finish.
///
/// Everything that touches a connection or an h2o structure runs on this thread. Other
/// threads hand work to it with ``post(_:)``, through an `h2o_multithread` queue: a pipe
/// the loop watches, written only when the queue was empty, so that answers arriving
/// together cost one wake-up.
final class EventLoop: @unchecked Sendable {
    // @unchecked: the h2o pointers and `connections` are used on the loop's thread only;
    // `receiver` is h2o's thread-safe way in.

    /// A closure posted from another thread.
    fileprivate final class Job {
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }

    let state: ServerState
    /// The h2o structures, all made on the loop's own thread (see ``setUp(listening:)``),
    /// set before `init` returns and never changed after.
    private(set) var loop: UnsafeMutablePointer<h2o_evloop_t>!
    /// Silence on a connection: how long it may go without a byte while it reads a request
    /// or writes an answer (``ServerConfiguration/idleTimeoutSeconds``), on real time.
    let idleTimeout: UnsafeMutablePointer<h2o_timeout_t>
    private var queue: OpaquePointer!
    private let receiver: UnsafeMutablePointer<h2o_multithread_receiver_t>
    private var listener: UnsafeMutablePointer<h2o_socket_t>!
    /// The open connections, so that stopping can close them.
    private var connections: [ObjectIdentifier: HTTPConnection] = [:]
    private var stopping = false
    /// Whether ``post(_:)`` may still use the queue.
    private let accepting = Lock(true)
    private let stopped = DispatchSemaphore(value: 0)
    /// The `Date` field, formatted once a second.
    var date = HTTPDateField()

    /// Creates the loop on a thread of its own and returns once it runs; `listening` is the
    /// server's socket, which the loop watches through a duplicate of its own (so that each
    /// loop can close its own without closing the others').
    init(state: ServerState, listening: Int32, index: Int) {
        self.state = state
        idleTimeout = .allocate(capacity: 1)
        idleTimeout.initialize(to: h2o_timeout_t())
        receiver = .allocate(capacity: 1)
        receiver.initialize(to: h2o_multithread_receiver_t())
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread.named("http-loop", suffix: ".\(index)") { [self] in
            setUp(listening: listening)
            ready.signal()
            run()
        }
        // Responders run their first part here, before they first wait: room for deep
        // call chains (the router, decoders) as on any thread of Swift's.
        thread.stackSize = 4 << 20
        thread.start()
        ready.wait()
    }

    /// Makes the loop, its queue and its listener on the loop's thread. It must be this
    /// thread: every h2o socket's input buffer starts as the `__thread` buffer prototype of
    /// the thread that made the socket, and the first read allocates from that prototype's
    /// free list. Made on the caller's thread, the queue's pipe socket pointed into that
    /// thread's storage, which is freed when the thread ends: the full suite crashed in
    /// h2o's read once a test thread that had started a server was gone.
    private func setUp(listening: Int32) {
        loop = h2o_evloop_create()
        h2o_timeout_init(
            loop, idleTimeout, UInt64(max(1, state.configuration.idleTimeoutSeconds)) * 1_000)
        queue = h2o_multithread_create_queue(loop)
        h2o_multithread_register_receiver(queue, receiver, receiveJobs)
        listener = h2o_evloop_socket_create(
            loop, dup(listening), Int32(H2O_SOCKET_FLAG_DONT_READ))
        listener.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        h2o_socket_read_start(listener, acceptConnections)
    }

    /// Runs `work` on the loop's thread, soon; never once the loop has ended (the
    /// connection it was for is closed by then). Safe from any thread.
    func post(_ work: @escaping () -> Void) {
        let job = Unmanaged.passRetained(Job(work)).toOpaque()
        // Under the lock: a task or a stream can answer after the loop ended, and its queue
        // is freed then.
        let posted = accepting.withLock { $0 && ch2o_post(receiver, job) == 0 }
        if !posted {
            Unmanaged<Job>.fromOpaque(job).release()
        }
    }

    /// Closes the listener and every connection, ends the thread and frees the loop;
    /// returns once all that is done.
    func stop() {
        post { [self] in
            stopping = true
            h2o_socket_read_stop(listener)
            h2o_socket_close(listener)
            for connection in connections.values { connection.close() }
        }
        stopped.wait()
    }

    private func run() {
        while !stopping || !connections.isEmpty {
            h2o_evloop_run(loop, Int32.max)
        }
        // One more turn disposes of the sockets closed in the last one.
        h2o_evloop_run(loop, 0)
        accepting.withLock { $0 = false }
        // Jobs posted but not yet received: run, they find their connections closed.
        receiveJobs(receiver, &receiver.pointee._messages)
        h2o_multithread_unregister_receiver(queue, receiver)
        h2o_multithread_destroy_queue(queue)
        h2o_evloop_run(loop, 0)
        h2o_timeout_dispose(loop, idleTimeout)
        h2o_evloop_destroy(loop)
        idleTimeout.deallocate()
        receiver.deallocate()
        stopped.signal()
    }

    /// Takes or refuses every connection waiting in the listen queue: a burst of a thousand
    /// would otherwise take a thousand turns of the loop.
    fileprivate func accept() {
        while let socket = h2o_evloop_socket_accept(listener) {
            var storage = sockaddr_storage()
            let address =
                ch2o_socket_peer(socket, &storage) > 0 ? ConnectionLimiter.Address(storage) : nil
            guard !stopping, !state.draining.load(ordering: .acquiring),
                state.limiter.admit(address)
            else {
                state.refusedConnections.add(1, ordering: .relaxed)  // for /metrics
                h2o_socket_close(socket)
                continue
            }
            let peer = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { PeerAddress($0) }
            }
            let connection = HTTPConnection(
                socket: socket, loop: self, peer: peer, address: address)
            connections[ObjectIdentifier(connection)] = connection
            connection.start()
        }
    }

    /// Called by a connection once it has closed its socket.
    func forget(_ connection: HTTPConnection) {
        connections[ObjectIdentifier(connection)] = nil
    }
}

/// The listening socket is readable: connections are waiting.
private let acceptConnections: h2o_socket_cb = { listener, error in
    guard error == nil, let listener, let data = listener.pointee.data else { return }
    Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().accept()
}

/// Runs the jobs other threads posted since the loop last looked.
private let receiveJobs: h2o_multithread_receiver_cb = { _, messages in
    guard let messages else { return }
    while let job = ch2o_take_message(messages) {
        let job = Unmanaged<EventLoop.Job>.fromOpaque(job).takeRetainedValue()
        job.work()
    }
}
