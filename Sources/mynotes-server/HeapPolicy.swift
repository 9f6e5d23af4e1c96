#if canImport(CMalloc) && os(Linux)
    import CMalloc
#endif

/// How the server's allocator treats large blocks once they are freed.
///
/// A search page of long notes is megabytes, copied through several buffers (the
/// database's result, the notes' text, the page's JSON, the socket's write). By default
/// glibc gives each such block its own fresh mapping, or trims it off the heap when freed,
/// so every request faults its pages in and zeroes them again: over the 139 MB account
/// that was 10 of a 6 MB page's 25 ms of server CPU.
///
/// ```swift
/// HeapPolicy.chosen(environment: context.environment).apply()
/// ```
enum HeapPolicy: Equatable {
    /// glibc's settings as they are (the operator's `GLIBC_TUNABLES`, or its defaults).
    case system
    /// Blocks up to 32 MiB come from the heap, and up to 64 MiB of freed memory stays at
    /// its top for the next request: the process keeps the pages its largest answers
    /// needed rather than giving them back after each.
    case retainLargeBlocks

    static let largestHeapBlock: Int32 = 32 << 20
    static let retainedBytes: Int32 = 64 << 20

    /// ``retainLargeBlocks``, unless the operator tuned glibc's allocator themselves
    /// (`GLIBC_TUNABLES=glibc.malloc.…`), whose settings this would override.
    static func chosen(environment: [String: String]) -> HeapPolicy {
        environment["GLIBC_TUNABLES"]?.contains("glibc.malloc.") == true
            ? .system : .retainLargeBlocks
    }

    /// Sets the allocator up; done once, as the server starts.
    func apply() {
        #if canImport(CMalloc) && os(Linux)
            guard self == .retainLargeBlocks else { return }
            // Setting either also stops glibc from moving both by itself.
            mallopt(M_MMAP_THRESHOLD, Self.largestHeapBlock)
            mallopt(M_TRIM_THRESHOLD, Self.retainedBytes)
        #endif
    }
}
