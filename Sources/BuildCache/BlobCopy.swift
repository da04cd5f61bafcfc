#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import TesseraCore

/// `read(2)`, named apart from `BlobCopy.read`.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// Streams a file's bytes somewhere while hashing them, in constant memory.
package enum BlobCopy {
    /// Reads `path` in chunks, handing each to `sink`; returns the SHA-256 and size of what was
    /// read, or nil when the file cannot be opened or read.
    static func stream(_ path: String, into sink: ([UInt8]) throws(TesseraError) -> Void) throws(TesseraError) -> (ContentHash, Int)? {
        try withoutActuallyEscaping(sink) { sink throws(TesseraError) in try stream(path, sink: sink) }
    }

    /// The SHA-256 and size of the file at `path`, or nil when it cannot be read; no chunk is
    /// copied out of the read buffer.
    static func hash(_ path: String) -> (ContentHash, Int)? {
        try? stream(path, sink: nil)
    }

    private static func stream(_ path: String, sink: (([UInt8]) throws(TesseraError) -> Void)?) throws(TesseraError) -> (ContentHash, Int)? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var hasher = ContentHasher()
        // Sized to the file (up to 1 MiB): most entries and blobs are small, and zeroing a large
        // buffer for each of thousands of them dominated a no-op run.
        var info = stat()
        let size = fstat(descriptor, &info) == 0 ? Int(info.st_size) : 1 << 16
        var buffer = [UInt8](repeating: 0, count: max(4096, min(size + 1, 1 << 20)))
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            if let sink {
                let chunk = Array(buffer[0..<count])
                hasher.update(chunk)
                try sink(chunk)
            } else {
                buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
            total += count
        }
        return (hasher.finalize(), total)
    }

    /// The SHA-256 and size of the open file's bytes from its start, or nil when it cannot be
    /// read; with `pread`, so the descriptor's offset is left alone.
    static func hash(open descriptor: Int32) -> (ContentHash, Int)? {
        var hasher = ContentHasher()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, off_t(total)) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return (hasher.finalize(), total) }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            total += count
        }
    }

    /// A file's whole bytes, or nil.
    static func read(_ path: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        let result = try? stream(path) { chunk throws(TesseraError) in bytes += chunk }
        return result == nil ? nil : bytes
    }

    /// Writes `bytes` to `path` through a temporary file in `temporaryFolder` (same file system)
    /// and a rename: the cache's own writes skip `fsync`, since every read is checked by hash.
    static func place(_ bytes: [UInt8], at path: String, temporaryFolder: String) -> Bool {
        bytes.withUnsafeBytes { place($0, at: path, temporaryFolder: temporaryFolder) }
    }

    /// `place` for bytes in a buffer (a piece of a larger download), without copying them first.
    static func place(_ bytes: UnsafeRawBufferPointer, at path: String, temporaryFolder: String) -> Bool {
        guard let temporary = makeTemporary(in: temporaryFolder) else { return false }
        let ok = writeAll(bytes, to: temporary.descriptor)
        close(temporary.descriptor)
        return finish(temporary.path, ok: ok, at: path)
    }

    /// Puts `source` in the store under the path `destination` names for its hash: a hard link
    /// when the store shares its file system (no second copy, no new inode), else a copy through a
    /// temporary file and a rename. A blob already there is kept: its reads are checked anyway.
    ///
    /// `knownHash` is the hash the caller computed as it wrote the file: then the file is not read
    /// (a blob is checked on every read, so a file changed since would only cost a miss).
    static func store(_ source: String, knownHash: ContentHash? = nil, to destination: (ContentHash) -> String,
                      temporaryFolder: String) -> (ContentHash, Int)? {
        let known = knownHash.flatMap { hash in FileStat(path: source).map { (hash, Int($0.size)) } }
        guard let (hash, size) = known ?? hash(source) else { return nil }
        let blob = destination(hash)
        if FileStat(path: blob) != nil { return (hash, size) }
        // A file of its own (`FileClone`): a later edit of the output in place leaves the blob whole.
        if let temporary = makeTemporary(in: temporaryFolder) {
            let filled = FileClone.fill(temporary.descriptor, from: source)
            close(temporary.descriptor)
            if filled, FileStat(path: temporary.path).map({ Int($0.size) }) == size,
               finish(temporary.path, ok: true, at: blob) {
                return (hash, size)
            }
            unlink(temporary.path)
        }
        return copy(source, to: destination, temporaryFolder: temporaryFolder)
    }

    /// Copies `source` to the path `destination` names for its hash (through a temporary file and
    /// a rename), hashing it on the way.
    static func copy(_ source: String, to destination: (ContentHash) -> String,
                     temporaryFolder: String) -> (ContentHash, Int)? {
        guard let temporary = makeTemporary(in: temporaryFolder) else { return nil }
        let descriptor = temporary.descriptor
        let result = try? stream(source) { chunk throws(TesseraError) in
            guard writeAll(chunk, to: descriptor) else { throw TesseraError(.io, file: source, reason: "write failed") }
        }
        close(descriptor)
        guard let result else {
            unlink(temporary.path)
            return nil
        }
        return finish(temporary.path, ok: true, at: destination(result.0)) ? result : nil
    }

    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }

    package static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    static func makeTemporary(in folder: String) -> (path: String, descriptor: Int32)? {
        var template = Array("\(folder)/\(AtomicFile.temporaryPrefix)XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        fchmod(descriptor, 0o644)
        return (String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), descriptor)
    }

    static func finish(_ temporary: String, ok: Bool, at path: String) -> Bool {
        if ok {
            let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            ensureFolder(folder)
            if rename(temporary, path) == 0 { return true }
            if errno == ENOENT, mkdir(folder, 0o755) == 0 || errno == EEXIST, rename(temporary, path) == 0 { return true }
        }
        unlink(temporary)
        return false
    }

    /// Folders this process made or found. A run stores thousands of files in a few hundred
    /// shard folders, and a `mkdir` before each cost a system call per file (about 3,000 for 600
    /// masters); a folder removed meanwhile is made again when a rename or link says so.
    private static let knownFolders = Mutex<Set<String>>([])

    static func ensureFolder(_ folder: String) {
        if knownFolders.withLock({ $0.contains(folder) }) { return }
        mkdir(folder, 0o755)
        knownFolders.withLock { _ = $0.insert(folder) }
    }
}
