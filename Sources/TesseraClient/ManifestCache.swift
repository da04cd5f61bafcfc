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
    /// The held manifest, decoded once for its bytes (`DecodedManifestMemo`).
    let memo = DecodedManifestMemo()
    static let maxBytes = 64 << 20

    private var manifestPath: String { "\(folder)/manifest.json" }
    private var tagPath: String { "\(folder)/manifest.etag" }

    /// The last verified manifest, if there is one.
    func stored() -> Manifest? { kept()?.manifest }

    /// The stored manifest with its bytes and, when signed, its expiry; nil when there is none
    /// or (with a pinned root) its kept signature does not check out.
    func kept() -> Kept? {
        guard let data = FileManager.default.contents(atPath: manifestPath) else { return nil }
        var expires: Date?
        if let trust {
            guard let accepted = trust.verifyStored(data) else { return nil }
            expires = accepted.expires
        }
        if let manifest = memo.manifest(for: data) { return Kept(data: data, manifest: manifest, expires: expires) }
        guard let manifest = try? Manifest.decode(data, source: manifestPath) else { return nil }
        memo.remember(manifest, decodedFrom: data)
        return Kept(data: data, manifest: manifest, expires: expires)
    }

    struct Kept: Sendable {
        var data: Data
        var manifest: Manifest
        var expires: Date?
    }

    /// Whether to look for `updates.json` first (`ClientConfiguration.usesUpdateIndex`).
    var usesUpdateIndex = true

    /// A fetched manifest, checked (signature, then decoding) but not yet in the store: the
    /// next generation, which the client commits once the bundles it needs are complete.
    struct Candidate: Sendable {
        var bytes: Data
        var manifest: Manifest
        var kept: Kept?
        var sidecar: [UInt8]?
        var head: HTTPStream.Head
        var startVersion: Int
        /// Whether it is another manifest than the one held.
        var isNew: Bool { kept.map { $0.data != bytes } ?? true }
    }

    /// How a fetch ended: settled (nothing new, offline, or already committed) or a candidate.
    enum Fetched: Sendable {
        case settled(Manifest, Outcome)
        case candidate(Candidate)
    }

    /// Fetches and commits at once (no bundles to bring along first).
    func refresh() async throws(TesseraError) -> (Manifest, Outcome) {
        switch try await fetch() {
        case .settled(let manifest, let outcome): return (manifest, outcome)
        case .candidate(let candidate): return try commit(candidate)
        }
    }

    /// Commits a candidate (see `commit(_:kept:sidecar:head:since:)`).
    func commit(_ candidate: Candidate) throws(TesseraError) -> (Manifest, Outcome) {
        try commit(candidate.bytes, kept: candidate.kept, sidecar: candidate.sidecar, head: candidate.head, since: candidate.startVersion,
                   decoded: candidate.manifest)
    }

    /// Fetches the manifest by the cheapest way the host offers (`ManifestDelta`), else whole
    /// with `If-None-Match`; checks its signature (with a pinned root) and decodes it, and
    /// leaves it to the caller to commit when it is new.
    func fetch() async throws(TesseraError) -> Fetched {
        let kept = kept()
        // What was accepted when this refresh began: a manifest signed below it is a rollback; one
        // that a concurrent refresh overtakes meanwhile is not (`newerAccepted`).
        let startVersion = trust?.state().manifestVersion ?? 0
        if usesUpdateIndex {
            let delta = ManifestDelta(manifestURL: url, timeout: timeout, deadline: deadline)
            let outcome: ManifestDelta.Outcome
            do throws(TesseraError) { outcome = try await delta.fetch(held: kept?.data) } catch {
                let (manifest, outcome) = try offline(error, kept)
                return .settled(manifest, outcome)
            }
            switch outcome {
            case .unavailable:
                break
            case .unchanged(_, let signature):
                if let kept, let settled = try await checked(kept.data, kept: kept, head: HTTPStream.Head(status: 304, headers: [:]),
                                                             signature: signature, since: startVersion) {
                    return settled
                }
            case .fetched(let bytes, _, let signature):
                if let fetched = try await checked(bytes, kept: kept, head: HTTPStream.Head(status: 200, headers: [:]),
                                                   signature: signature, since: startVersion) {
                    return fetched
                }
            }
            // No index, or what it led to is not what the publisher signed: manifest.json decides.
        }
        return try await fetchWhole(kept: kept, since: startVersion)
    }

    /// `bytes` from the update index's way, with its signature checked when a root is pinned;
    /// nil when the signature refuses them (a stale or forged index: `manifest.json` decides).
    private func checked(_ bytes: Data, kept: Kept?, head: HTTPStream.Head, signature: String?,
                         since startVersion: Int) async throws(TesseraError) -> Fetched? {
        var sidecar: [UInt8]?
        if let trust {
            let location = trust.sidecarURL(named: signature)
            do throws(TesseraError) { sidecar = try await trust.fetchSidecar(from: location, timeout: timeout, deadline: deadline) } catch {
                if error.kind == .untrusted || error.kind == .cancelled { throw error }
                let (manifest, outcome) = try offline(error, kept)
                return .settled(manifest, outcome)
            }
            guard (try? trust.verify(bytes, sidecar: sidecar!)) != nil else { return nil }
        }
        return try prepared(bytes, kept: kept, sidecar: sidecar, head: head, since: startVersion)
    }

    /// A 304 (or an unchanged index) is committed at once (only a newer signature to keep); new
    /// bytes are decoded into a candidate, or, when they do not check out, settled by `commit`
    /// (which refuses them, or answers a newer manifest a concurrent refresh accepted).
    private func prepared(_ bytes: Data, kept: Kept?, sidecar: [UInt8]?, head: HTTPStream.Head,
                          since startVersion: Int) throws(TesseraError) -> Fetched {
        if head.status == 304 || (trust != nil && sidecar.flatMap({ try? trust!.verify(bytes, sidecar: $0) }) == nil) {
            let (manifest, outcome) = try commit(bytes, kept: kept, sidecar: sidecar, head: head, since: startVersion)
            return .settled(manifest, outcome)
        }
        let manifest: Manifest
        do throws(TesseraError) {
            // The new build's manifest repeats most of the held one's JSON: those elements are
            // taken from its decoded copy, the rest decoded (about half an update's CPU time was
            // this decode at 5,000 assets, G4).
            if let kept {
                manifest = try Manifest.decode(bytes, source: url.absoluteString, reusing: kept.manifest, decodedFrom: kept.data)
            } else {
                manifest = try Manifest.decode(bytes, source: url.absoluteString)
            }
        } catch {
            let (manifest, outcome) = try offline(error, kept)
            return .settled(manifest, outcome)
        }
        return .candidate(Candidate(bytes: bytes, manifest: manifest, kept: kept, sidecar: sidecar, head: head, startVersion: startVersion))
    }

    /// `manifest.json` itself, with `If-None-Match` against the kept copy's ETag.
    private func fetchWhole(kept: Kept?, since startVersion: Int) async throws(TesseraError) -> Fetched {
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
                throw TesseraError(.io, file: url.absoluteString, origin: .client, reason: "HTTP \(head.status)")
            }
        } catch {
            let (manifest, outcome) = try offline(error, kept)
            return .settled(manifest, outcome)
        }
        let bytes = head.status == 304 ? kept!.data : body.data
        var sidecar: [UInt8]?
        if let trust {
            let location = trust.sidecarURL(named: head.status == 200 ? head.headers["tessera-signature-location"] : nil)
            do throws(TesseraError) { sidecar = try await trust.fetchSidecar(from: location, timeout: timeout, deadline: deadline) } catch {
                if error.kind == .untrusted { throw error }
                let (manifest, outcome) = try offline(error, kept)
                return .settled(manifest, outcome)
            }
        }
        return try prepared(bytes, kept: kept, sidecar: sidecar, head: head, since: startVersion)
    }

    /// Checks `bytes` against what was accepted and writes them (or, after a 304, the new
    /// signature) in one step, under the store's lock: two refreshes of one store (two requests
    /// in an app, the app and its extension) each checked against the old state, and the later
    /// writer rolled the store back to an older version it then accepted again. The signature is
    /// checked before the bytes are decoded: a manifest that is not the one signed is refused,
    /// never taken for an unreadable answer. `startVersion`: the manifest version accepted when
    /// the refresh began.
    /// `decoded`: the manifest already decoded from exactly `bytes` (a candidate's), not decoded again.
    func commit(_ bytes: Data, kept: Kept?, sidecar: [UInt8]?, head: HTTPStream.Head,
                since startVersion: Int, decoded: Manifest? = nil) throws(TesseraError) -> (Manifest, Outcome) {
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
                if let decoded { manifest = decoded } else { manifest = try Manifest.decode(bytes, source: url.absoluteString) }
            } catch {
                return try offline(error, kept)
            }
            try AtomicFile.write(bytes, to: manifestPath)
            memo.remember(manifest, decodedFrom: bytes)
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
    func offline(_ error: TesseraError, _ kept: Kept?) throws(TesseraError) -> (Manifest, Outcome) {
        guard error.kind != .cancelled, let kept else { throw error }
        if let expires = kept.expires, expires <= Date() {
            return (kept.manifest, .stale(reason: "\(error.description); the last verified manifest's signature expired at \(TrustTime.format(expires))"))
        }
        return (kept.manifest, .offline(reason: error.description))
    }
}
