import CAllocator
import Foundation

/// Gives the heaps' free pages back to the kernel twice a second while a build runs.
///
/// A build of many tiny masters frees, job by job as the jobs end, what planning allocated for
/// each (its work and input), among records that live to the end of the build; glibc keeps the
/// freed pages inside its heaps, and jobs on other threads allocate from other heaps. Trimming
/// gives them back: 100,000 sets peaked at 1755 MiB instead of 1979, in the same CPU time
/// (docs/memory.md, third round). It takes each heap's lock briefly, twice a second.
enum HeapTrimming {
    /// Microseconds between trims.
    static let interval: UInt32 = 500_000

    /// Starts trimming for the rest of the process; nothing where the C library cannot trim.
    static func start() {
        guard tessera_trim_heap() >= 0 else { return }
        Thread.detachNewThread {
            while true {
                usleep(interval)
                _ = tessera_trim_heap()
            }
        }
    }
}
