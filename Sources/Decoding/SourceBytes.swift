import Foundation
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// The bytes of an encoded image, pinned at a stable address for the C codecs, with the path they came from.
///
/// Codec sessions keep pointers into these bytes across several calls, which Swift arrays do not
/// allow; this class owns one allocation that never moves and is never mutated after `init`.
public final class SourceBytes: @unchecked Sendable {
    // @unchecked: the buffer is written only during init and read-only afterwards.
    public let path: String
    private let storage: UnsafeMutableRawBufferPointer

    /// Reads a whole file.
    public init(contentsOfFile path: String) throws(TesseraError) {
        self.path = path
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw TesseraError(.io, file: path, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw TesseraError(.io, file: path, reason: "not a regular file")
        }
        let size = Int(status.st_size)
        storage = .allocate(byteCount: max(size, 1), alignment: 16)
        var offset = 0
        while offset < size {
            let count = read(descriptor, storage.baseAddress! + offset, size - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                storage.deallocate()
                throw TesseraError(.io, file: path, reason: "read failed after \(offset) of \(size) bytes")
            }
            offset += count
        }
        count = size
    }

    /// Copies bytes held in memory; `path` names them in messages.
    public init(bytes: some Collection<UInt8>, path: String) {
        self.path = path
        storage = .allocate(byteCount: max(bytes.count, 1), alignment: 16)
        _ = storage.initializeMemory(as: UInt8.self, from: bytes)
        count = bytes.count
    }

    deinit { storage.deallocate() }

    /// Number of bytes.
    public let count: Int

    /// The bytes; valid for the life of this object.
    public var pointer: UnsafePointer<UInt8> {
        UnsafePointer(storage.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    /// The first bytes, for format sniffing.
    public var prefix: [UInt8] {
        Array(UnsafeBufferPointer(start: pointer, count: min(count, 16)))
    }

    /// SHA-256 of the bytes.
    public var contentHash: ContentHash {
        ContentHash.of(UnsafeRawBufferPointer(start: storage.baseAddress, count: count))
    }
}
