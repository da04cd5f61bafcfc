import Delivery
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TesseraCore

/// The signature side of the manifest refresh when a root is pinned: the sidecar fetched from
/// the manifest's URL + `.sig`, checked by `TrustVerifier`, and, once accepted, kept beside the
/// manifest (`manifest.json.sig`) with what was accepted (`trust.json`), each written atomically.
/// Nothing is written for a manifest that is refused.
struct ManifestTrust: Sendable {
    var verifier: TrustVerifier
    var manifestURL: URL
    var folder: String

    var sidecarURL: URL {
        manifestURL.deletingLastPathComponent().appendingPathComponent(manifestURL.lastPathComponent + ManifestSidecar.suffix)
    }
    private var sidecarPath: String { "\(folder)/manifest.json\(ManifestSidecar.suffix)" }
    private var statePath: String { "\(folder)/trust.json" }

    /// What was accepted before: nothing on a first run (or a state file that does not read).
    func state() -> TrustState {
        FileManager.default.contents(atPath: statePath).flatMap { try? JSONDecoder().decode(TrustState.self, from: $0) } ?? TrustState()
    }

    /// The kept manifest checked again against its kept signature, expiry aside (the caller
    /// reports an expired one as stale); nil when it does not check out.
    func verifyStored(_ manifest: Data) -> TrustVerifier.Accepted? {
        guard let sidecar = FileManager.default.contents(atPath: sidecarPath) else { return nil }
        return try? verifier.verify(manifest: manifest, sidecar: Array(sidecar), state: state(), now: nil, source: manifestURL.absoluteString)
    }

    /// Checks fetched bytes now, against what was accepted before.
    func verify(_ manifest: Data, sidecar: [UInt8]) throws(TesseraError) -> TrustVerifier.Accepted {
        try verifier.verify(manifest: manifest, sidecar: sidecar, state: state(), now: Date(), source: manifestURL.absoluteString)
    }

    /// Keeps an accepted signature and state; the manifest's own bytes are the caller's to write first.
    func keep(_ sidecar: [UInt8], _ accepted: TrustVerifier.Accepted) throws(TesseraError) {
        try AtomicFile.write(sidecar, to: sidecarPath)
        try AtomicFile.write(try StableJSON.encode(accepted.state), to: statePath)
    }

    /// Where the sidecar is: the manifest's URL + `.sig`, or the URL the manifest's answer named
    /// in `Tessera-Signature-Location` (`tessera serve`: its build's own signature, so a channel
    /// moving between the two requests cannot pair one build's manifest with another's
    /// signature). Only a URL on the manifest's own origin is followed.
    func sidecarURL(named location: String?) -> URL {
        guard let location, let named = URL(string: location, relativeTo: manifestURL)?.absoluteURL,
              named.scheme == manifestURL.scheme, named.host == manifestURL.host, named.port == manifestURL.port else { return sidecarURL }
        return named
    }

    /// The sidecar's bytes from `url`. A server that answers 404 (or 403, 410) has no signature
    /// for the manifest: refused as unsigned. Other failures are the network's, which the caller treats as offline.
    func fetchSidecar(from url: URL, timeout: TimeInterval, deadline: TimeInterval) async throws(TesseraError) -> [UInt8] {
        let body = BoundedBody(limit: ManifestSidecar.maxBytes, what: "the signature file")
        let head = try await HTTPStream.get(URLRequest(url: url), timeout: timeout, deadline: deadline, priority: URLSessionTask.highPriority,
                                            onHead: { _ in }, onBody: { (data) throws(TesseraError) in try body.append(data, url: url) })
        switch head.status {
        case 200: return Array(body.data)
        case 403, 404, 410:
            throw TesseraError(.untrusted, file: manifestURL.absoluteString, origin: .client,
                               reason: "unsigned: no signature at \(url.absoluteString) (HTTP \(head.status)), and a root of trust is pinned")
        default: throw TesseraError(.io, file: url.absoluteString, origin: .client, reason: "HTTP \(head.status)")
        }
    }
}
