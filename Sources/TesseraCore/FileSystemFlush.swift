#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// glibc's `syncfs(2)`, which its Swift module hides behind `_GNU_SOURCE`; it takes and returns C ints.
@_silgen_name("syncfs")
private func syncFileSystem(_ descriptor: Int32) -> Int32
#endif

/// Flushes a whole file system to disk at once: one `syncfs` instead of an `fsync` per file, for
/// runs that place thousands of files with `AtomicFileWriter.commit(flushing: false)`.
public enum FileSystemFlush {
    /// Flushes the file system holding `path`; false when it cannot be opened or flushed.
    @discardableResult
    public static func flush(containing path: String) -> Bool {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        #if os(Linux)
        return syncFileSystem(descriptor) == 0
        #else
        // Darwin has no syncfs; F_FULLFSYNC on any file flushes the drive's cache too.
        sync()
        return fcntl(descriptor, F_FULLFSYNC) == 0
        #endif
    }
}
