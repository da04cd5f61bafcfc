import Foundation
import TesseraCore

/// Serialises a `Manifest` to JSON and writes it atomically.
public enum ManifestWriter {
    /// Pretty-printed, sorted keys, unescaped slashes, trailing newline: stable and diff-friendly.
    public static func encode(_ manifest: Manifest) throws(TesseraError) -> [UInt8] {
        try StableJSON.encode(manifest)
    }

    public static func write(_ manifest: Manifest, to path: String) throws(TesseraError) {
        try AtomicFile.write(try encode(manifest), to: path)
    }

    /// Reads a manifest back, checking its version.
    public static func read(from path: String) throws(TesseraError) -> Manifest {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.io, file: path, stage: "manifest", reason: "cannot read the manifest")
        }
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            throw TesseraError(.invalidInput, file: path, stage: "manifest", reason: "not a Tessera manifest: \(error)")
        }
        guard manifest.version == Manifest.currentVersion else {
            throw TesseraError(.invalidInput, file: path, stage: "manifest",
                               reason: "manifest version \(manifest.version) is not \(Manifest.currentVersion)")
        }
        return manifest
    }
}
