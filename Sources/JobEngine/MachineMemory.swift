#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The most memory one job may need on this machine: the smaller of its physical memory and the
/// process's address-space and data limits (`ulimit -v`, `prlimit --as`).
///
/// The scheduler runs a job larger than its memory budget alone rather than never, but a job
/// larger than the machine cannot finish: its allocation fails and takes the whole process down,
/// every other asset's output with it (a 1 × 200,000,000 PNG did, issue 39). Such a job is failed
/// before it starts, naming its file, and the rest of the build goes on.
public enum MachineMemory {
    /// Bytes of physical memory, or nil when the system does not say.
    public static var physical: Int? {
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), size = sysconf(Int32(_SC_PAGESIZE))
        return pages > 0 && size > 0 ? pages * size : nil
    }

    /// The smaller of the address-space and data-segment soft limits, or nil when both are unlimited.
    public static var processLimit: Int? {
        #if os(Linux)
        let resources = [Int32(RLIMIT_AS.rawValue), Int32(RLIMIT_DATA.rawValue)]
        #else
        let resources = [RLIMIT_AS, RLIMIT_DATA]
        #endif
        var smallest: Int?
        for resource in resources {
            var limit = rlimit()
            // RLIM_INFINITY is all ones: Int(clamping:) makes it Int.max, which `min` passes over.
            guard getrlimit(resource, &limit) == 0 else { continue }
            let bytes = Int(clamping: limit.rlim_cur)
            if bytes < Int.max / 2 { smallest = min(smallest ?? bytes, bytes) }
        }
        return smallest
    }

    /// What one job may reserve: the smaller of the two, less a quarter for everything else the
    /// process holds (the runtime, the other stages' results); `Int.max` when neither is known.
    public static var jobCeiling: Int {
        guard let smallest = [physical, processLimit].compactMap({ $0 }).min() else { return .max }
        return smallest / 4 * 3
    }
}
