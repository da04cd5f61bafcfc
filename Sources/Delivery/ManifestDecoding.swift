import Foundation
import TesseraCore

extension Manifest {
    /// Reads a manifest's JSON, checking its version; `source` (a path or URL) names it in errors.
    /// The build (`ManifestWriter.read`) and the client read manifests through here alike.
    public static func decode(_ data: Data, source: String) throws(TesseraError) -> Manifest {
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            throw TesseraError(.invalidInput, file: source, stage: .manifest, reason: "not a Tessera manifest: \(error)")
        }
        guard manifest.version == Manifest.currentVersion else {
            throw TesseraError(.invalidInput, file: source, stage: .manifest,
                               reason: "manifest version \(manifest.version) is not \(Manifest.currentVersion)")
        }
        return manifest
    }
}
