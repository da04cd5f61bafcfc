#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder as the file system knows it (device and inode), whatever path or link leads to it:
/// what a catalog walk remembers so that a link back to a folder it has read is not read again.
struct FolderIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    /// The folder `path` leads to (links followed); nil when it cannot be read.
    init?(of path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
