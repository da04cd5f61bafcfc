import Delivery
import Foundation
import TesseraCore

/// Serialises a `Manifest` to JSON and writes it atomically.
public enum ManifestWriter {
    /// Pretty-printed, sorted keys, unescaped slashes, trailing newline: stable and diff-friendly.
    public static func encode(_ manifest: Manifest) throws(TesseraError) -> [UInt8] {
        try StableJSON.encode(manifest)
    }

    /// Refuses, naming the reason, a manifest its readers (`tessera query`, the server,
    /// `TesseraClient`) would refuse: larger than `limit` (their 64 MiB), or breaking a rule of
    /// `Manifest.violation`. A build of some 50,000 assets used to be green with a manifest no
    /// reader accepts; nothing is written then, and the build fails.
    public static func write(_ manifest: Manifest, to path: String, limit: Int = ManifestLimits.maxBytes) throws(TesseraError) {
        let bytes = try encode(manifest)
        guard bytes.count <= limit else {
            throw TesseraError(.limitExceeded, file: path, stage: .manifest,
                               reason: "the manifest would be \(bytes.count) bytes (\(manifest.assets.count) assets); its readers (query, tessera serve, TesseraClient) accept at most \(limit): split the input into builds (one per target or catalog)")
        }
        if let violation = manifest.violation() {
            throw TesseraError(.limitExceeded, file: path, stage: .manifest, reason: "the manifest would be refused by its readers: \(violation)")
        }
        try AtomicFile.write(bytes, to: path)
    }

    /// Reads a manifest back, checking its version.
    public static func read(from path: String) throws(TesseraError) -> Manifest {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.io, file: path, stage: .manifest, reason: "cannot read the manifest")
        }
        return try Manifest.decode(data, source: path)
    }
}
