#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many connections `tessera serve` can hold: its descriptor limit, raised to the hard limit
/// at start (as nginx's `worker_rlimit_nofile` does), less what the server keeps open itself.
enum DescriptorBudget {
    /// Descriptors kept for everything but connections: the open-blob table (`OpenBlobCache`,
    /// 512), the catalog's database, the log, the listening socket, and room to spare.
    static let reserved = 512 + 128

    /// Raises the soft descriptor limit to the hard one; returns the soft limit then in force.
    @discardableResult
    static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is all ones, which the cap covers.
        return Int(min(limit.rlim_cur, 1 << 20))
    }

    /// The default connection cap: what the raised limit leaves, at least 64, at most 65,536.
    static func defaultConnectionLimit() -> Int {
        min(65_536, max(64, raise() - reserved))
    }
}
