import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The process's own figures, under the names Prometheus's client libraries use:
/// resident memory, CPU seconds, open and allowed file descriptors, start time. Read
/// from `/proc` and `getrusage` at scrape time.
///
/// ```swift
/// registry.register(ProcessMetrics())
/// ```
public struct ProcessMetrics: MetricsCollector {
    public init() {}

    public func collect(into text: inout MetricsText) {
        var usage = rusage()
        if getrusage(RUSAGE_SELF.rawValue, &usage) == 0 {
            let seconds =
                Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
                + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
            text.family(
                "process_cpu_seconds_total", type: .counter,
                help: "User and system CPU time spent, in seconds.")
            text.sample("process_cpu_seconds_total", value: seconds)
        }
        if let resident = Self.residentBytes() {
            text.family(
                "process_resident_memory_bytes", type: .gauge, help: "Resident memory, in bytes.")
            text.sample("process_resident_memory_bytes", value: resident)
        }
        if let open = Self.openDescriptors() {
            text.family("process_open_fds", type: .gauge, help: "Open file descriptors.")
            text.sample("process_open_fds", value: open)
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            text.family(
                "process_max_fds", type: .gauge, help: "The most file descriptors allowed.")
            text.sample("process_max_fds", value: Int(clamping: limit.rlim_cur))
        }
        text.family(
            "process_start_time_seconds", type: .gauge,
            help: "When the process started, in seconds since the Unix epoch.")
        text.sample("process_start_time_seconds", value: Self.startTime)
    }

    /// `/proc/self/statm`'s second field: resident pages.
    static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func openDescriptors() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { name in
                name[0] == UInt8(ascii: ".")
            }
            if !isDot { count += 1 }
        }
        return count - 1  // the directory stream's own descriptor
    }

    /// Boot time (`/proc/stat`'s `btime`) plus the process's start in clock ticks after
    /// boot (`/proc/self/stat`'s 22nd field); the time of the first scrape if unreadable.
    static let startTime: Double = {
        let fallback = Date().timeIntervalSince1970.rounded()
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")"),
            let system = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let bootLine = system.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
            let boot = Double(bootLine.dropFirst("btime ".count))
        else { return fallback }
        // After the name: field 3 (state) first, so field 22 is at index 19.
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return fallback }
        return boot + ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }()
}
