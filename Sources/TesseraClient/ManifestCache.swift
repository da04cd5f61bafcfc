import Delivery
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TesseraCore

/// The manifest: fetched with `If-None-Match` against the last verified copy, which is kept in
/// the store (bytes and ETag, each replaced atomically) and used when the server cannot be reached.
struct ManifestCache: Sendable {
    /// How a refresh went.
    enum Outcome: Sendable, Equatable {
        case updated
        case notModified
        /// The server could not be reached or answered badly; the stored manifest is in use.
        case offline(reason: String)
    }

    var url: URL
    var folder: String
    var timeout: TimeInterval
    static let maxBytes = 64 << 20

    private var manifestPath: String { "\(folder)/manifest.json" }
    private var tagPath: String { "\(folder)/manifest.etag" }

    /// The last verified manifest, if there is one.
    func stored() -> Manifest? {
        guard let data = FileManager.default.contents(atPath: manifestPath) else { return nil }
        return try? Manifest.decode(data, source: manifestPath)
    }

    func refresh() async throws(TesseraError) -> (Manifest, Outcome) {
        let kept = stored()
        var request = URLRequest(url: url)
        if kept != nil, let data = FileManager.default.contents(atPath: tagPath), let tag = String(data: data, encoding: .utf8) {
            request.setValue(tag, forHTTPHeaderField: "If-None-Match")
        }
        let body = Body()
        let head: HTTPStream.Head
        let manifest: Manifest
        do throws(TesseraError) {
            head = try await HTTPStream.get(request, timeout: timeout, priority: URLSessionTask.highPriority, onHead: { _ in }, onBody: { (data) throws(TesseraError) in
                try body.append(data, url: url)
            })
            switch head.status {
            case 304 where kept != nil: return (kept!, .notModified)
            case 200: break
            default: throw TesseraError(.io, file: url.absoluteString, stage: .client, reason: "HTTP \(head.status)")
            }
            // Verified (it decodes, at the right version) before it replaces the kept copy.
            manifest = try Manifest.decode(body.data, source: url.absoluteString)
        } catch {
            guard error.kind != .cancelled, let kept else { throw error }
            return (kept, .offline(reason: error.description))
        }
        try AtomicFile.write(body.data, to: manifestPath)
        if let tag = head.headers["etag"] { try AtomicFile.write(Array(tag.utf8), to: tagPath) } else {
            try? FileManager.default.removeItem(atPath: tagPath)
        }
        return (manifest, .updated)
    }

    private final class Body: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = Data()
        var data: Data { lock.withLock { bytes } }

        func append(_ piece: Data, url: URL) throws(TesseraError) {
            lock.lock()
            defer { lock.unlock() }
            do {
                guard bytes.count + piece.count <= ManifestCache.maxBytes else {
                    throw TesseraError(.limitExceeded, file: url.absoluteString, stage: .client,
                                       reason: "the manifest is over \(ManifestCache.maxBytes >> 20) MiB")
                }
                bytes.append(piece)
            }
        }
    }
}
