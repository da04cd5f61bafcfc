import Delivery
import Foundation
import HTTPRequests
import TesseraCore

/// `tessera query --trusted-root`: a build's manifest read with its signature (`manifest.json.sig`
/// beside a folder's or file's manifest, the URL + `.sig` for a URL) and checked as TesseraClient
/// checks it, with `TrustVerifier`, before it is answered from. There is no earlier state here,
/// so rollback is judged by the client alone; everything else is the same check.
enum SignedManifestLoader {
    static func load(_ location: String, trustedRoot: String, channel: String?) throws(TesseraError) -> Manifest {
        let pinned = try TrustedRoot(contentsOf: URL(fileURLWithPath: trustedRoot))
        let (manifest, sidecar, source) = try read(location)
        let verifier = TrustVerifier(pinned: pinned, channel: channel ?? channelName(in: source) ?? "production")
        _ = try verifier.verify(manifest: manifest, sidecar: sidecar, state: TrustState(), now: Date(), source: source)
        return try Manifest.decode(manifest, source: source)
    }

    /// A `tessera serve` channel's name from its URL (`…/v1/channels/NAME[/manifest]`).
    static func channelName(in source: String) -> String? {
        let parts = source.split(separator: "/").map(String.init)
        guard let index = parts.lastIndex(of: "channels"), index > 0, parts[index - 1] == "v1", index + 1 < parts.count else { return nil }
        return parts[index + 1]
    }

    private static func read(_ location: String) throws(TesseraError) -> (Data, [UInt8], String) {
        if let url = URL(string: location), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let manifestURL = channelName(in: location) != nil && url.lastPathComponent != "manifest" ? url.appendingPathComponent("manifest") : url
            let signatureURL = URL(string: manifestURL.absoluteString + ManifestSidecar.suffix)!
            let manifest = try fetch(manifestURL, signature: false)
            return (Data(manifest), try fetch(signatureURL, signature: true), manifestURL.absoluteString)
        }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: location, isDirectory: &isFolder)
        let path = exists && isFolder.boolValue ? "\(location)/manifest.json" : location
        guard let manifest = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.io, file: path, origin: .query, reason: "no build here: neither a build folder with a manifest.json nor a manifest file")
        }
        guard let sidecar = FileManager.default.contents(atPath: path + ManifestSidecar.suffix) else {
            throw TesseraError(.untrusted, file: path, origin: .query, reason: "unsigned: no \(path + ManifestSidecar.suffix), and --trusted-root is given")
        }
        return (manifest, Array(sidecar), path)
    }

    private static func fetch(_ url: URL, signature: Bool) throws(TesseraError) -> [UInt8] {
        let answer: HTTPRequest.Answer
        do {
            // A signature file is small; a manifest at most what every reader accepts.
            answer = try HTTPRequest.sendWaiting("GET", url, timeout: 30,
                                                 maxBodyBytes: signature ? ManifestSidecar.maxBytes : ManifestLimits.maxBytes)
        } catch {
            throw TesseraError(.io, file: url.absoluteString, origin: .query, reason: "cannot fetch: \(error)")
        }
        if signature && [403, 404, 410].contains(answer.status) {
            throw TesseraError(.untrusted, file: url.absoluteString, origin: .query,
                               reason: "unsigned: HTTP \(answer.status) for the signature, and --trusted-root is given")
        }
        guard answer.status == 200 else {
            throw TesseraError(.io, file: url.absoluteString, origin: .query, reason: "HTTP \(answer.status)")
        }
        return answer.body
    }
}
