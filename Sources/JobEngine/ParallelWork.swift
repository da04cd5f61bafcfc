import Foundation
import Synchronization

/// Runs `body(0..<count)` on `width` threads of its own: cache lookups block on disks and
/// sockets, so they get real threads rather than Dispatch's pool, sized for the cores.
public enum ParallelWork {
    public static func run(count: Int, width: Int, _ body: @escaping @Sendable (Int) -> Void) async {
        guard count > 0 else { return }
        let threads = max(1, min(width, count))
        let counters = Counters(threads: threads)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for _ in 0..<threads {
                let thread = Thread {
                    while true {
                        let index = counters.next.add(1, ordering: .relaxed).oldValue
                        guard index < count else { break }
                        body(index)
                    }
                    if counters.running.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                        continuation.resume()
                    }
                }
                thread.start()
            }
        }
    }

    private final class Counters: Sendable {
        let next = Atomic<Int>(0)
        let running: Atomic<Int>
        init(threads: Int) { running = Atomic(threads) }
    }
}
