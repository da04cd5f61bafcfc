#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock on a file in the cache folder (`flock`): serialises the few read-modify-write
/// steps (the fingerprint index, pruning) between processes sharing one cache.
enum CacheLock {
    static func withExclusive<T>(_ path: String, _ body: () -> T) -> T {
        let descriptor = open(path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else { return body() }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        return body()
    }
}
