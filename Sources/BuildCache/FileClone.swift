#if canImport(Glibc)
import Glibc
#endif

/// A new file with another file's bytes and an inode of its own: what the cache gives an output
/// folder, and keeps of an output. A hard link shared the inode, so a tool that edits an output
/// in place (jpegoptim, exiftool) changed every build folder holding that file and the cache
/// blob behind them (issue 38). Copy-on-write where the file system has it (`FICLONE`: Btrfs,
/// XFS, bcachefs), else a copy made by the kernel (`sendfile`), never through user space.
enum FileClone {
    /// `FICLONE`, `_IOW(0x94, 9, int)`.
    private static let cloneRequest: UInt = 0x4004_9409

    /// Writes `source`'s bytes into the open, empty file `descriptor`; false on any failure.
    static func fill(_ descriptor: Int32, from source: String) -> Bool {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return false }
        defer { close(input) }
        return fill(descriptor, fromOpen: input)
    }

    /// Writes the bytes of the open file `input` (from its start, whatever its offset) into the
    /// open, empty file `descriptor`; false on any failure. Reading an open file rather than a
    /// path: a blob this run lends to an output may be renamed away meanwhile (`LentBlobs`).
    static func fill(_ descriptor: Int32, fromOpen input: Int32) -> Bool {
        if ioctl(descriptor, cloneRequest, input) == 0 { return true }
        var info = stat()
        guard fstat(input, &info) == 0 else { return false }
        var offset = off_t(0)
        var remaining = Int(info.st_size)
        while remaining > 0 {
            let sent = sendfile(descriptor, input, &offset, min(remaining, 1 << 30))
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            remaining -= sent
        }
        return true
    }
}
