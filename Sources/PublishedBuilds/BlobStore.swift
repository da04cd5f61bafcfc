import Foundation
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// Content-addressed files on disk: `blobs/<first two hex digits>/<64 hex digits>`, one per SHA-256.
/// Bundle entries' objects (`docs/updates.md`) live beside them, `objects/<two>/<64>`, stored once
/// across builds under the SHA-256 of their decoded contents (`objects`).
///
/// A blob appears under its name only after its bytes were hashed, found equal to the name and
/// flushed (`BlobUpload`), so a reader (or a restart after kill -9) never finds a partial or
/// mismatching blob; leftovers of interrupted uploads are temporary files swept on open. Names
/// come only from parsed digests, never from request paths, so nothing outside the folder is reachable.
public struct BlobStore: Sendable {
    /// The store folder (`--store`).
    public let root: String
    /// The folder under `root` its files are in: `blobs`, or `objects` for `objects`.
    public let folder: String

    /// Opens the store, creating its folders, and removes temporary files an earlier process left.
    public init(root: String) throws(TesseraError) {
        self.root = root
        folder = "blobs"
        for folder in ["blobs", "objects"] {
            do {
                try FileManager.default.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true)
            } catch {
                throw TesseraError(.io, file: root, origin: .store, reason: "cannot create the blob store: \(error.localizedDescription)")
            }
            _ = StaleTemporaryFiles.sweep(under: "\(root)/\(folder)")
        }
    }

    private init(root: String, folder: String) {
        self.root = root
        self.folder = folder
    }

    /// The objects beside the blobs: named by the SHA-256 of their decoded contents, so their
    /// stored bytes (xz for some) do not hash to their names; `ObjectUpload` checks them decoded.
    public var objects: BlobStore { BlobStore(root: root, folder: "objects") }

    /// Where the blob named `digest` lives (whether or not it is there yet).
    public func path(of digest: ContentHash) -> String {
        let hex = digest.hex
        return "\(root)/\(folder)/\(hex.prefix(2))/\(hex)"
    }

    /// Where the gzip form of a blob (kept for manifests) lives.
    public func gzipPath(of digest: ContentHash) -> String { path(of: digest) + ".gz" }

    /// The blob's size in bytes, or nil when it is absent.
    public func size(of digest: ContentHash) -> Int? {
        var status = stat()
        guard stat(path(of: digest), &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// The blob opened for reading, or nil when it is absent. Blobs never change once stored, so
    /// an open blob can be kept and read by many requests at once (`pread` has no shared offset).
    public func open(_ digest: ContentHash) -> OpenBlob? { OpenBlob(path: path(of: digest)) }

    public func contains(_ digest: ContentHash) -> Bool { size(of: digest) != nil }

    /// The blob's bytes, or nil when it is absent.
    public func read(_ digest: ContentHash) -> [UInt8]? {
        FileManager.default.contents(atPath: path(of: digest)).map { Array($0) }
    }

    /// Stores `bytes` under `digest` after checking they hash to it.
    public func put(_ bytes: [UInt8], as digest: ContentHash) throws(TesseraError) {
        let upload = try begin(digest, limit: bytes.count)
        try upload.append(bytes)
        try upload.commit()
    }

    /// Starts streaming a blob in; `limit` bounds its size.
    public func begin(_ digest: ContentHash, limit: Int) throws(TesseraError) -> BlobUpload {
        try BlobUpload(destination: path(of: digest), digest: digest, limit: limit)
    }

    /// Every stored blob whose bytes do not hash to its name (none, unless the disk lies).
    public func mismatchedBlobs() -> [String] {
        var bad: [String] = []
        let base = "\(root)/\(folder)"
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: "\(base)/\(folder)")) ?? [] {
                guard let digest = ContentHash(hex: name) else { continue }
                let path = "\(base)/\(folder)/\(name)"
                if (try? ContentHash.ofFile(at: path)) != digest { bad.append(path) }
            }
        }
        return bad.sorted()
    }
}

/// A stored blob's open descriptor and size; the descriptor closes when the last holder lets go,
/// so a cache may drop it while a download still reads through it.
public final class OpenBlob: Sendable {
    /// The open file, valid for as long as this object lives (for `sendfile`; it must not be closed).
    public let descriptor: Int32
    public let size: Int

    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        size = Int(status.st_size)
    }

    deinit { close(descriptor) }

    /// Fills `buffer` from byte `offset` on; false when the blob ends first or reading fails.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return false }
            done += count
        }
        return true
    }
}

/// One blob being written: bytes go to a temporary file and are hashed as they come; `commit`
/// renames it into place only when the digest matches the name.
public final class BlobUpload {
    private let writer: AtomicFileWriter
    private var hasher = ContentHasher()
    private let digest: ContentHash
    private let limit: Int
    public private(set) var count = 0

    init(destination: String, digest: ContentHash, limit: Int) throws(TesseraError) {
        writer = try AtomicFileWriter(path: destination)
        self.digest = digest
        self.limit = limit
    }

    /// Appends a piece; throws `limitExceeded` past the limit.
    public func append(_ bytes: UnsafeRawBufferPointer) throws(TesseraError) {
        count += bytes.count
        guard count <= limit else {
            writer.discard()
            throw TesseraError(.limitExceeded, file: digest.hex, origin: .store, reason: "blob larger than \(limit) bytes")
        }
        hasher.update(bytes)
        try writer.append(Array(bytes))
    }

    public func append(_ bytes: [UInt8]) throws(TesseraError) {
        var failure: TesseraError?
        bytes.withUnsafeBytes { buffer in
            do throws(TesseraError) { try append(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Verifies the digest and moves the blob into place; on a mismatch nothing is stored.
    public func commit() throws(TesseraError) {
        let actual = hasher.finalize()
        guard actual == digest else {
            writer.discard()
            throw TesseraError(.invalidInput, file: digest.hex, origin: .store,
                               reason: "the uploaded bytes hash to \(actual.hex), not to the blob's name")
        }
        try writer.commit()
    }

    /// Drops the partial blob.
    public func discard() { writer.discard() }
}
