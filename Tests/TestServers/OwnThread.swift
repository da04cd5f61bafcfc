import Foundation

/// Blocking work awaited from async code without holding a cooperative thread.
///
/// Swift's cooperative pool has as many threads as cores (two here). A test that blocks one of
/// them waiting for a process takes half the pool from every other test running beside it; two
/// such tests take all of it, and then gRPC calls miss their deadlines and in-process builds
/// stop, though nothing is wrong with them. Blocking waits go to a thread of their own instead.
public enum OwnThread {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }
}
