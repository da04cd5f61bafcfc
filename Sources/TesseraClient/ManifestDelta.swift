import Delivery
import Foundation
import TesseraCore

/// The cheap ways to a build's manifest (`docs/updates.md`): `updates.json` first (a few hundred
/// bytes), then a patch from the manifest held, else `manifest.json.xz`. Whatever way the bytes
/// come, they are exactly the manifest the index names (SHA-256 and size) before anyone parses
/// them; with a signed channel the caller then checks them against the signed statement.
///
/// A host without the index (an old build, `tessera serve`) or whose files do not check out is
/// not an error here: the caller fetches `manifest.json` as before. Only a failure to reach the
/// host at all (no answer, a 5xx for the index) is thrown, so the refresh counts as offline.
struct ManifestDelta: Sendable {
    var manifestURL: URL
    var timeout: TimeInterval
    var deadline: TimeInterval

    enum Outcome: Sendable, Equatable {
        /// No usable index: fetch `manifest.json` itself (the reason, for diagnostics).
        case unavailable(String)
        /// The index names the manifest held: nothing changed. `signature`: as for `fetched`.
        case unchanged(ManifestReference, signature: String?)
        /// The new manifest's bytes, checked against the index; `via`: the file they came from;
        /// `signature`: the index answer's `Tessera-Signature-Location` (`tessera serve` names the
        /// signature of the build the index is for, so a channel moving meanwhile cannot pair
        /// one build's manifest with another's signature).
        case fetched(Data, via: URL, signature: String?)
    }

    /// A file beside the manifest.
    func url(of path: String) -> URL {
        path.split(separator: "/").reduce(manifestURL.deletingLastPathComponent()) { $0.appendingPathComponent(String($1)) }
    }

    /// `held`: the exact bytes of the manifest this device holds, if any.
    func fetch(held: Data?) async throws(TesseraError) -> Outcome {
        let indexURL = url(of: UpdateIndex.fileName)
        let answer = try await BoundedBody.get(indexURL, limit: UpdateIndex.maxBytes, what: "the update index",
                                               timeout: timeout, deadline: deadline)
        switch answer.status {
        case 200: break
        case 403, 404, 410: return .unavailable("no \(indexURL.absoluteString) (HTTP \(answer.status))")
        default: throw TesseraError(.io, file: indexURL.absoluteString, origin: .client, reason: "HTTP \(answer.status)")
        }
        let index: UpdateIndex
        do throws(TesseraError) { index = try UpdateIndex.decode(answer.body, source: indexURL.absoluteString) } catch {
            return .unavailable(error.description)
        }
        let signature = answer.head.headers["tessera-signature-location"]
        let heldReference = held.map { ManifestReference(of: Array($0)) }
        if heldReference == index.manifest { return .unchanged(index.manifest, signature: signature) }
        var reasons: [String] = []
        if let held, let heldReference, let patch = index.patch(from: heldReference) {
            let patchURL = url(of: patch.path)
            do throws(TesseraError) {
                // Bounded by the index's size: an oversized patch is cut off, not read on.
                let fetched = try await BoundedBody.get(patchURL, limit: patch.bytes, what: "the patch", timeout: timeout, deadline: deadline)
                guard fetched.status == 200 else {
                    throw TesseraError(.io, file: patchURL.absoluteString, origin: .client, reason: "HTTP \(fetched.status)")
                }
                let bytes = try ManifestPatch.apply(Array(fetched.body), to: Array(held), target: index.manifest, name: patchURL.absoluteString)
                return .fetched(Data(bytes), via: patchURL, signature: signature)
            } catch {
                if error.kind == .cancelled { throw error }
                reasons.append(error.description)
            }
        }
        let compressedURL = url(of: UpdateIndex.compressedManifestName)
        do throws(TesseraError) {
            let fetched = try await BoundedBody.get(compressedURL, limit: index.compressedBytes, what: "the compressed manifest",
                                                    timeout: timeout, deadline: deadline)
            guard fetched.status == 200 else {
                throw TesseraError(.io, file: compressedURL.absoluteString, origin: .client, reason: "HTTP \(fetched.status)")
            }
            let bytes: [UInt8]
            do throws(TesseraError) {
                bytes = try XZ.decompress(Array(fetched.body), expectedSize: index.manifest.bytes, maxSize: ManifestLimits.maxBytes)
            } catch {
                throw TesseraError(.invalidInput, file: compressedURL.absoluteString, origin: .client, reason: error.reason)
            }
            // Checked before it is parsed: the index's manifest or nothing.
            guard ManifestReference(of: bytes) == index.manifest else {
                throw TesseraError(.invalidInput, file: compressedURL.absoluteString, origin: .client,
                                   reason: "it decompresses to other bytes than the manifest \(index.manifest.sha256.hex) the update index names")
            }
            return .fetched(Data(bytes), via: compressedURL, signature: signature)
        } catch {
            if error.kind == .cancelled { throw error }
            reasons.append(error.description)
        }
        return .unavailable(reasons.joined(separator: "; "))
    }
}
