import Foundation
import TesseraCore

extension Manifest {
    /// Reads a manifest's JSON, checking its version; `source` (a path or URL) names it in errors.
    /// The build (`ManifestWriter.read`) and the client read manifests through here alike.
    /// The whole manifest is validated (`violation()`): paths inside the build, sizes, counts.
    public static func decode(_ data: Data, source: String) throws(TesseraError) -> Manifest {
        guard data.count <= ManifestLimits.maxBytes else {
            throw TesseraError(.invalidInput, file: source, origin: .manifest,
                               reason: "the manifest is \(data.count) bytes; at most \(ManifestLimits.maxBytes) (64 MiB)")
        }
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            throw TesseraError(.invalidInput, file: source, origin: .manifest, reason: "not a Tessera manifest: \(error)")
        }
        return try checked(manifest, source: source)
    }

    /// `manifest` when it is of the version read and breaks no rule (`violation()`): what every
    /// decode checks of what JSON gave it.
    static func checked(_ manifest: Manifest, source: String) throws(TesseraError) -> Manifest {
        guard manifest.version == Manifest.currentVersion else {
            throw TesseraError(.invalidInput, file: source, origin: .manifest,
                               reason: "manifest version \(manifest.version) is not \(Manifest.currentVersion)")
        }
        if let violation = manifest.violation() {
            throw TesseraError(.invalidInput, file: source, origin: .manifest, reason: "not a manifest Tessera accepts: \(violation)")
        }
        return manifest
    }
}
