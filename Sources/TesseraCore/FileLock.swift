#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock on a file (`flock`), held while `body` runs: serialises read-modify-write
/// steps between threads, tasks and processes that share a folder — a build cache's index and
/// pruning, a client store's manifest and trust state. Each call opens the file anew, so two
/// callers in one process exclude each other as two processes do. A lock file that cannot be
/// opened (a read-only folder) runs `body` unlocked: there is then nothing to write either.
public enum FileLock {
    public static func withExclusive<T, E: Error>(_ path: String, _ body: () throws(E) -> T) throws(E) -> T {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
