#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat` says about a file: enough to tell whether it changed since it was last hashed.
struct FileStat: Sendable, Equatable {
    var size: Int64
    var modifiedNanoseconds: Int64
    var changedNanoseconds: Int64
    var inode: UInt64

    /// Nil when there is no regular file at `path`.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modifiedNanoseconds = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        changedNanoseconds = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
        modifiedNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changedNanoseconds = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
        inode = UInt64(info.st_ino)
    }

    init(size: Int64, modifiedNanoseconds: Int64, changedNanoseconds: Int64, inode: UInt64) {
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedNanoseconds = changedNanoseconds
        self.inode = inode
    }

    /// Wall-clock nanoseconds now, on the clock file times use.
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// Marks the file as just used (its modification time), which is what least-recently-used pruning sorts by.
    static func touch(_ path: String) {
        utimensat(AT_FDCWD, path, nil, 0)
    }
}
