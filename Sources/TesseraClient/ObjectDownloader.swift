import Delivery
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TesseraCore

/// Fetches one bundle entry's object (`objects/<sha256>`, `docs/updates.md`) and leaves its
/// decoded contents, checked against the manifest's SHA-256 and size, in a file of its own.
///
/// As `BundleDownloader`: the transfer goes to a partial file that later attempts resume
/// (`Range` + `If-Range`), counted by `ResumingRetries`. Unlike a
/// bundle, an `xz` object's transfer size is not exact (a server keeps the first upload of a
/// name, which another build may have compressed otherwise), so the transfer is bounded, not
/// sized, and what decides is what it decodes to.
struct ObjectDownloader: Sendable {
    var attempts: Int
    var timeout: TimeInterval
    var deadline: TimeInterval
    var minimumBytesPerSecond: Int
    var priority: Float

    /// The most an object's transfer may take: its own bytes for `identity`; for `xz`, what the
    /// manifest lists or what any xz of the contents can take (stored chunks: a few bytes per
    /// 64 KiB plus headers), whichever is larger.
    static func limit(of object: TransferObject) -> Int {
        switch object.encoding {
        case .identity: object.bytes
        case .xz: max(object.transferBytes, object.bytes + object.bytes / 256 + 4096)
        }
    }

    /// Returns when `destination` holds the object's verified contents; `progress` gets the
    /// transfer's bytes so far.
    func fetch(_ object: TransferObject, from url: URL, into partial: PartialFile, destination: String,
               progress: @escaping @Sendable (Int) -> Void) async throws(TesseraError) {
        let limit = Self.limit(of: object)
        try await ResumingRetries(attempts: attempts, url: url).run(into: partial) { () async throws(TesseraError) in
            if partial.size > limit { partial.remove() }
            try await attempt(url, limit: limit, into: partial, progress: progress)
            partial.close()
            try decode(object, from: partial.path, into: destination, url: url)
            partial.remove()
        }
    }

    private func attempt(_ url: URL, limit: Int, into partial: PartialFile,
                         progress: @escaping @Sendable (Int) -> Void) async throws(TesseraError) {
        var request = URLRequest(url: url)
        // The object's own bytes: the hash and the bounds are of them, and a range counts them.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        let resumeFrom = partial.size
        let validator = partial.validator
        if resumeFrom > 0, let validator {
            request.setValue("bytes=\(resumeFrom)-", forHTTPHeaderField: "Range")
            request.setValue(validator, forHTTPHeaderField: "If-Range")
        } else if resumeFrom > 0 {
            try partial.restart(validator: nil)
        }
        let source = url.absoluteString
        let deadline = max(self.deadline, Double(limit - resumeFrom) / Double(minimumBytesPerSecond))
        let complete = CompleteFlag()
        _ = try await HTTPStream.get(request, timeout: timeout, deadline: deadline, priority: priority, onHead: { (head) throws(TesseraError) in
            if let encoding = head.headers["content-encoding"], encoding.lowercased() != "identity" {
                throw TesseraError(.invalidInput, file: source, origin: .client,
                                   reason: "the server sent the object with Content-Encoding '\(encoding)' though asked for its bytes as they are")
            }
            switch head.status {
            case 206 where resumeFrom > 0:
                guard let range = head.headers["content-range"], range.hasPrefix("bytes \(resumeFrom)-") else {
                    throw TesseraError(.io, file: source, origin: .client,
                                       reason: "asked for bytes from \(resumeFrom), got range '\(head.headers["content-range"] ?? "none")'")
                }
            // The partial file is whole already (a transfer that ended just before its check).
            case 416 where resumeFrom > 0:
                complete.set()
            case 200:
                let tag = head.headers["etag"].flatMap { $0.hasPrefix("W/") ? nil : $0 }
                try partial.restart(validator: tag ?? head.headers["last-modified"])
            default:
                throw TesseraError(.io, file: source, origin: .client, reason: "HTTP \(head.status)")
            }
        }, onBody: { (data) throws(TesseraError) in
            // A 416's own body is not the object's.
            if complete.isSet { return }
            guard partial.size + data.count <= limit else {
                throw TesseraError(.invalidInput, file: source, origin: .client,
                                   reason: "the server sent more than the \(limit) bytes the object can take")
            }
            try partial.append(data)
            progress(partial.size)
        })
    }

    /// Decodes the transfer per the object's encoding into `destination`, streaming, and keeps
    /// it only when it is exactly the object's size and SHA-256.
    private func decode(_ object: TransferObject, from path: String, into destination: String, url: URL) throws(TesseraError) {
        guard let input = FileHandle(forReadingAtPath: path) else {
            throw TesseraError(.io, file: path, origin: .client, reason: "cannot open the downloaded object")
        }
        defer { try? input.close() }
        try? FileManager.default.removeItem(atPath: destination)
        let output = try EntryFile(creating: destination)
        var hasher = ContentHasher()
        var produced = 0
        func take(_ piece: UnsafeRawBufferPointer) throws(TesseraError) {
            produced += piece.count
            guard produced <= object.bytes else {
                throw TesseraError(.invalidInput, file: url.absoluteString, origin: .client, reason: "it holds more than the manifest's \(object.bytes) bytes")
            }
            hasher.update(piece)
            try output.append(piece)
        }
        func next() throws(TesseraError) -> [UInt8]? {
            do {
                guard let data = try input.read(upToCount: 1 << 20), !data.isEmpty else { return nil }
                return Array(data)
            } catch {
                throw TesseraError(.io, file: path, origin: .client, reason: "cannot read: \(error.localizedDescription)")
            }
        }
        do throws(TesseraError) {
            switch object.encoding {
            case .identity:
                while let piece = try next() { try piece.withUnsafeBytes { bytes in Result { () throws(TesseraError) in try take(bytes) } }.get() }
            case .xz:
                do throws(TesseraError) { try XZ.decompress(reading: next, expectedSize: object.bytes, into: take) } catch {
                    throw TesseraError(.invalidInput, file: url.absoluteString, origin: .client, reason: "its xz does not decode: \(error.reason)")
                }
            }
            try output.close()
            guard produced == object.bytes, hasher.finalize() == object.sha256 else {
                throw TesseraError(.invalidInput, file: url.absoluteString, origin: .client,
                                   reason: "its \(produced) decoded bytes do not match the manifest's SHA-256 \(object.sha256.hex) and size \(object.bytes)")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw error
        }
    }
}

/// Set when a resumed transfer's answer says the partial file already holds the whole object.
private final class CompleteFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
