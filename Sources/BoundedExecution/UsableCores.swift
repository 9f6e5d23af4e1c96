import Foundation

/// How many cores this process may run on: the CPUs of its affinity mask (what
/// `taskset` or a cgroup's cpuset allows) on Linux, the active processors elsewhere.
/// Thread pools sized from it do not run more threads than cores, which on a server
/// pinned to fewer cores than the machine has would only add context switches.
///
/// ```swift
/// let threads = UsableCores.count  // 1 under `taskset -c 0`, on any machine
/// ```
public enum UsableCores {
    public static let count: Int = {
        // Glibc's module does not export sched_getaffinity; the kernel prints the same mask.
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let allowed = affinityCount(status: status)
        {
            return allowed
        }
        return ProcessInfo.processInfo.activeProcessorCount
    }()

    /// The CPUs in the `Cpus_allowed:` line of a `/proc/PID/status` text (a hexadecimal
    /// mask in comma-separated words), `nil` when there is none or it allows none.
    static func affinityCount(status: String) -> Int? {
        guard
            let line = status.split(separator: "\n").first(where: {
                $0.hasPrefix("Cpus_allowed:")
            })
        else { return nil }
        var count = 0
        for character in line.dropFirst("Cpus_allowed:".count) {
            guard let digit = character.hexDigitValue else { continue }
            count += digit.nonzeroBitCount
        }
        return count > 0 ? count : nil
    }
}
