import Delivery
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
            throw TesseraError(.io, file: path, stage: .manifest, reason: "cannot read the manifest")
        }
        return try Manifest.decode(data, source: path)
    }
}
