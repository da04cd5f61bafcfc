import Delivery
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TesseraCore

/// Fetches one bundle into a partial file until it has exactly the manifest's size and SHA-256.
///
/// Each attempt resumes from the bytes kept so far (`Range` + `If-Range`): a `206` continues the
/// same file, a `200` means the server's file changed (or it ignores ranges) and the download
/// restarts from byte 0. Attempts are counted by `ResumingRetries`. Bytes that do not hash to the
/// manifest's SHA-256 are thrown away and fetched again; nothing unverified is ever handed on.
struct BundleDownloader: Sendable {
    var attempts: Int
    var timeout: TimeInterval
    /// The least time one attempt gets (`ClientConfiguration.responseDeadline`), and the slowest
    /// rate it may take beyond it (`minimumBytesPerSecond`).
    var deadline: TimeInterval = 120
    var minimumBytesPerSecond: Int = 16 << 10
    var priority: Float
    /// Free bytes of the store's disk no bundle may take (`ClientConfiguration.reservedDiskBytes`).
    var reservedDiskBytes: Int = 0

    /// Returns when `partial` holds the verified bundle; `progress` gets the partial's size as it grows.
    func fetch(_ url: URL, bytes expected: Int, sha256: ContentHash, into partial: PartialFile,
               progress: @escaping @Sendable (Int) -> Void) async throws(TesseraError) {
        // A bundle that cannot fit is refused before a byte is fetched: a manifest declaring a
        // huge bundle made the client fill the disk with a partial file it kept to resume.
        let folder = (partial.path as NSString).deletingLastPathComponent
        if let free = Self.freeBytes(under: folder), expected - partial.size > free - reservedDiskBytes {
            let kept = reservedDiskBytes > 0 ? ", of which \(reservedDiskBytes) are kept free for the device" : ""
            throw TesseraError(.limitExceeded, file: url.absoluteString, origin: .client,
                               reason: "the bundle is \(expected) bytes; the store's disk has \(free) bytes free\(kept)")
        }
        try await ResumingRetries(attempts: attempts, url: url).run(into: partial) { () async throws(TesseraError) in
            if partial.size > expected { partial.remove() }
            if partial.size < expected { try await attempt(url, expected: expected, into: partial, progress: progress) }
            partial.close()
            guard partial.size == expected else {
                throw TesseraError(.io, file: url.absoluteString, origin: .client,
                                   reason: "the transfer stopped at \(partial.size) of \(expected) bytes")
            }
            guard try ContentHash.ofFile(at: partial.path) == sha256 else {
                partial.remove()
                throw TesseraError(.invalidInput, file: url.absoluteString, origin: .client,
                                   reason: "the \(expected) bytes received do not match the manifest's SHA-256 \(sha256.hex)")
            }
        }
    }

    private func attempt(_ url: URL, expected: Int, into partial: PartialFile,
                         progress: @escaping @Sendable (Int) -> Void) async throws(TesseraError) {
        var request = URLRequest(url: url)
        // The bundle's own bytes, never a compressed form of them: ranges (a resumed download) count
        // bytes of what is sent, and the manifest's size and SHA-256 are the bundle's. Bundles are
        // compressed inside already; a server that compresses them anyway is refused below.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        let resumeFrom = partial.size
        let validator = partial.validator
        if resumeFrom > 0, let validator {
            request.setValue("bytes=\(resumeFrom)-", forHTTPHeaderField: "Range")
            request.setValue(validator, forHTTPHeaderField: "If-Range")
        }
        let source = url.absoluteString
        let deadline = max(self.deadline, Double(expected - resumeFrom) / Double(minimumBytesPerSecond))
        _ = try await HTTPStream.get(request, timeout: timeout, deadline: deadline, priority: priority, onHead: { (head) throws(TesseraError) in
            if let encoding = head.headers["content-encoding"], encoding.lowercased() != "identity" {
                throw TesseraError(.invalidInput, file: source, origin: .client,
                                   reason: "the server sent the bundle with Content-Encoding '\(encoding)' though asked for its bytes as they are")
            }
            switch head.status {
            case 206 where resumeFrom > 0 && validator != nil:
                guard let range = head.headers["content-range"], range.hasPrefix("bytes \(resumeFrom)-") else {
                    throw TesseraError(.io, file: source, origin: .client,
                                       reason: "asked for bytes from \(resumeFrom), got range '\(head.headers["content-range"] ?? "none")'")
                }
            case 200:
                // A whole file: the first request, a changed file (If-Range did not match) or no range support.
                let tag = head.headers["etag"].flatMap { $0.hasPrefix("W/") ? nil : $0 }
                try partial.restart(validator: tag ?? head.headers["last-modified"])
            default:
                throw TesseraError(.io, file: source, origin: .client, reason: "HTTP \(head.status)")
            }
        }, onBody: { (data) throws(TesseraError) in
            guard partial.size + data.count <= expected else {
                throw TesseraError(.invalidInput, file: source, origin: .client,
                                   reason: "the server sent more than the manifest's \(expected) bytes")
            }
            try partial.append(data)
            progress(partial.size)
        })
    }

    /// Bytes an unprivileged writer may still use on the file system holding `folder`.
    static func freeBytes(under folder: String) -> Int? {
        guard let attributes = try? FileManager.default.attributesOfFileSystem(forPath: folder),
              let free = attributes[.systemFreeSize] as? NSNumber else { return nil }
        return free.intValue
    }
}
