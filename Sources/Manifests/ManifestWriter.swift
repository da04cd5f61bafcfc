import Delivery
import Foundation
import TesseraCore

/// Serialises a `Manifest` to JSON and writes it atomically.
public enum ManifestWriter {
    /// Pretty-printed, sorted keys, unescaped slashes, trailing newline: stable and diff-friendly.
    /// `chunk`: how many entries of a list are encoded at once (`ManifestJSON`); the bytes are the same.
    public static func encode(_ manifest: Manifest, chunk: Int = ManifestJSON.defaultChunk) throws(TesseraError) -> [UInt8] {
        var bytes: [UInt8] = []
        try ManifestJSON.encode(manifest, chunk: chunk) { piece throws(TesseraError) in bytes += piece }
        return bytes
    }

    /// Refuses, naming the reason, a manifest its readers (`tessera query`, the server,
    /// `TesseraClient`) would refuse: larger than `limit` (their 64 MiB), or breaking a rule of
    /// `Manifest.violation`. A build of some 50,000 assets used to be green with a manifest no
    /// reader accepts; nothing is written then, and the build fails.
    ///
    /// The JSON is streamed to the file in pieces (`ManifestJSON`), never held whole: encoding a
    /// 100,000-asset manifest in one go took about ten times its 230 MB in memory. Past the limit
    /// nothing more is written, but the rest is still measured, for the message.
    public static func write(_ manifest: Manifest, to path: String, limit: Int = ManifestLimits.maxBytes) throws(TesseraError) {
        let writer = try AtomicFileWriter(path: path)
        var size = 0
        var pending: [UInt8] = []
        try ManifestJSON.encode(manifest) { piece throws(TesseraError) in
            size += piece.count
            guard size <= limit else {
                pending = []
                return
            }
            pending += piece
            if pending.count >= 1 << 20 {
                try writer.append(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        guard size <= limit else {
            writer.discard()
            throw TesseraError(.limitExceeded, file: path, origin: .manifest,
                               reason: "the manifest would be \(size) bytes (\(manifest.assets.count) assets); its readers (query, tessera serve, TesseraClient) accept at most \(limit): split the input into builds (one per target or catalog)")
        }
        if let violation = manifest.violation() {
            writer.discard()
            throw TesseraError(.limitExceeded, file: path, origin: .manifest, reason: "the manifest would be refused by its readers: \(violation)")
        }
        try writer.append(pending)
        try writer.commit()
    }

    /// Reads a manifest back, checking its version.
    public static func read(from path: String) throws(TesseraError) -> Manifest {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.io, file: path, origin: .manifest, reason: "cannot read the manifest")
        }
        return try Manifest.decode(data, source: path)
    }
}
