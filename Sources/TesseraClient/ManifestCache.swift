import Delivery
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TesseraCore

/// The manifest: fetched with `If-None-Match` against the last verified copy, which is kept in
/// the store (bytes and ETag, each replaced atomically) and used when the server cannot be reached.
/// With a pinned root (`trust`), a manifest is used only with a valid signature: one that fails is
/// refused (thrown, never taken for a network failure) and leaves the store as it was.
struct ManifestCache: Sendable {
    /// How a refresh went.
    enum Outcome: Sendable, Equatable {
        case updated
        case notModified
        /// The server could not be reached or answered badly; the stored manifest is in use.
        case offline(reason: String)
        /// As `offline`, and the stored manifest's signature has expired since it was accepted.
        case stale(reason: String)
    }

    var url: URL
    var folder: String
    var timeout: TimeInterval
    /// The most the whole manifest (and its signature) may take (`ClientConfiguration.responseDeadline`).
    var deadline: TimeInterval = 120
    var trust: ManifestTrust?
    static let maxBytes = 64 << 20

    private var manifestPath: String { "\(folder)/manifest.json" }
    private var tagPath: String { "\(folder)/manifest.etag" }

    /// The last verified manifest, if there is one.
    func stored() -> Manifest? { kept()?.manifest }

    /// The stored manifest with its bytes and, when signed, its expiry; nil when there is none
    /// or (with a pinned root) its kept signature does not check out.
    private func kept() -> Kept? {
        guard let data = FileManager.default.contents(atPath: manifestPath) else { return nil }
        var expires: Date?
        if let trust {
            guard let accepted = trust.verifyStored(data) else { return nil }
            expires = accepted.expires
        }
        guard let manifest = try? Manifest.decode(data, source: manifestPath) else { return nil }
        return Kept(data: data, manifest: manifest, expires: expires)
    }

    struct Kept {
        var data: Data
        var manifest: Manifest
        var expires: Date?
    }

    func refresh() async throws(TesseraError) -> (Manifest, Outcome) {
        let kept = kept()
        // What was accepted when this refresh began: a manifest signed below it is a rollback; one
        // that a concurrent refresh overtakes meanwhile is not (`newerAccepted`).
        let startVersion = trust?.state().manifestVersion ?? 0
        var request = URLRequest(url: url)
        if kept != nil, let data = FileManager.default.contents(atPath: tagPath), let tag = String(data: data, encoding: .utf8) {
            request.setValue(tag, forHTTPHeaderField: "If-None-Match")
        }
        let body = BoundedBody(limit: Self.maxBytes, what: "the manifest")
        let head: HTTPStream.Head
        do throws(TesseraError) {
            head = try await HTTPStream.get(request, timeout: timeout, deadline: deadline, priority: URLSessionTask.highPriority, onHead: { _ in }, onBody: { (data) throws(TesseraError) in
                try body.append(data, url: url)
            })
            guard head.status == 200 || (head.status == 304 && kept != nil) else {
                throw TesseraError(.io, file: url.absoluteString, stage: .client, reason: "HTTP \(head.status)")
            }
        } catch {
            return try offline(error, kept)
        }
        let bytes = head.status == 304 ? kept!.data : body.data
        var sidecar: [UInt8]?
        if let trust {
            let location = trust.sidecarURL(named: head.status == 200 ? head.headers["tessera-signature-location"] : nil)
            do throws(TesseraError) { sidecar = try await trust.fetchSidecar(from: location, timeout: timeout, deadline: deadline) } catch {
                if error.kind == .untrusted { throw error }
                return try offline(error, kept)
            }
        }
        return try commit(bytes, kept: kept, sidecar: sidecar, head: head, since: startVersion)
    }

    /// Checks `bytes` against what was accepted and writes them (or, after a 304, the new
    /// signature) in one step, under the store's lock: two refreshes of one store (two requests
    /// in an app, the app and its extension) each checked against the old state, and the later
    /// writer rolled the store back to an older version it then accepted again. The signature is
    /// checked before the bytes are decoded: a manifest that is not the one signed is refused,
    /// never taken for an unreadable answer. `startVersion`: the manifest version accepted when
    /// the refresh began.
    func commit(_ bytes: Data, kept: Kept?, sidecar: [UInt8]?, head: HTTPStream.Head,
                since startVersion: Int) throws(TesseraError) -> (Manifest, Outcome) {
        try FileLock.withExclusive(lockPath) { () throws(TesseraError) -> (Manifest, Outcome) in
            var signature: (sidecar: [UInt8], accepted: TrustVerifier.Accepted)?
            if let trust, let sidecar {
                do throws(TesseraError) {
                    signature = (sidecar, try trust.verify(bytes, sidecar: sidecar))
                } catch {
                    // Another refresh of this store accepted a newer manifest meanwhile: that one stands.
                    if let newer = newerAccepted(than: bytes, sidecar: sidecar, trust: trust, since: startVersion) { return (newer, .notModified) }
                    throw error
                }
            }
            if head.status == 304, let kept {
                // The manifest is unchanged; its signature may be newer (re-signed with a later expiry).
                if let signature { try trust!.keep(signature.sidecar, signature.accepted) }
                return (kept.manifest, .notModified)
            }
            let manifest: Manifest
            do throws(TesseraError) {
                // Verified (it decodes, at the right version) before it replaces the kept copy.
                manifest = try Manifest.decode(bytes, source: url.absoluteString)
            } catch {
                return try offline(error, kept)
            }
            try AtomicFile.write(bytes, to: manifestPath)
            if let tag = head.headers["etag"] { try AtomicFile.write(Array(tag.utf8), to: tagPath) } else {
                try? FileManager.default.removeItem(atPath: tagPath)
            }
            if let signature { try trust!.keep(signature.sidecar, signature.accepted) }
            return (manifest, .updated)
        }
    }

    /// The store's lock file: held while a refresh checks and writes the manifest and its trust.
    private var lockPath: String { "\(folder)/manifest.lock" }

    /// The kept manifest, when a concurrent refresh accepted it at a higher version than `bytes`
    /// are signed at, after this refresh began at `startVersion`; nil otherwise: a manifest
    /// signed below what was accepted when the refresh began is a rollback, refused as such.
    private func newerAccepted(than bytes: Data, sidecar: [UInt8], trust: ManifestTrust, since startVersion: Int) -> Manifest? {
        guard let fetched = try? trust.verifier.verify(manifest: bytes, sidecar: sidecar, state: TrustState(), now: nil,
                                                       source: url.absoluteString),
              fetched.statement.version >= startVersion,
              let stored = kept(), trust.state().manifestVersion > fetched.statement.version else { return nil }
        return stored.manifest
    }

    /// The kept manifest in place of a failed fetch (stale when its signature has expired), or the failure.
    private func offline(_ error: TesseraError, _ kept: Kept?) throws(TesseraError) -> (Manifest, Outcome) {
        guard error.kind != .cancelled, let kept else { throw error }
        if let expires = kept.expires, expires <= Date() {
            return (kept.manifest, .stale(reason: "\(error.description); the last verified manifest's signature expired at \(TrustTime.format(expires))"))
        }
        return (kept.manifest, .offline(reason: error.description))
    }
}
