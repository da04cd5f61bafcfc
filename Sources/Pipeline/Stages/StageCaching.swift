import Delivery
import Foundation
import JobEngine
import Manifests
import Packing
import TesseraCore

/// How each stage whose result is a file is cached (`JobCaching`): which files it leaves under
/// the output folder, and its result as a small JSON from which the restored result is made.
enum StageCaching {
    /// A variant written, copied or carried. The source's name is in the manifest entry but not
    /// in the key (identical bytes under two names make one key), so it salts the cache key.
    static func variant(root: String, source: String) -> JobCaching {
        JobCaching(root: root, salt: ["source=\(source)"], encode: { value throws(TesseraError) in
            let written: WrittenVariant = try cast(value)
            return CachedResult(files: [written.entry.path],
                                metadata: try json(Variant(asset: written.asset, entry: written.entry, warnings: written.warnings)),
                                knownHashes: [written.entry.path: written.entry.sha256])
        }, decode: { bytes throws(TesseraError) in
            let variant = try parse(Variant.self, bytes)
            return WrittenVariant(asset: variant.asset, entry: variant.entry, warnings: variant.warnings)
        })
    }

    static func bitmap(root: String) -> JobCaching {
        JobCaching(root: root, encode: { value throws(TesseraError) in
            let written: WrittenBitmap = try cast(value)
            return CachedResult(files: [written.entry.path],
                                metadata: try json(Bitmap(asset: written.asset, scale: written.scale, entry: written.entry)),
                                knownHashes: [written.entry.path: written.entry.sha256])
        }, decode: { bytes throws(TesseraError) in
            let bitmap = try parse(Bitmap.self, bytes)
            return WrittenBitmap(asset: bitmap.asset, scale: bitmap.scale, entry: bitmap.entry)
        })
    }

    /// A carried data file: its key names the paths only, so its bytes' hash and its tags salt it.
    static func data(root: String, content: ContentHash, tags: [String]) -> JobCaching {
        JobCaching(root: root, salt: ["content=\(content.hex)", "tags=\(tags.joined(separator: ","))"],
                   encode: { value throws(TesseraError) in
            let entry: DataEntry = try cast(value)
            return CachedResult(files: [entry.path], metadata: try json(entry), knownHashes: [entry.path: entry.sha256])
        }, decode: { bytes throws(TesseraError) in try parse(DataEntry.self, bytes) })
    }

    /// An animation's timing: no file, but reading it means parsing the whole animation.
    static func timing(root: String) -> JobCaching {
        JobCaching(root: root, encode: { value throws(TesseraError) in
            let timing: AssetAnimation = try cast(value)
            return CachedResult(files: [], metadata: try json(Timing(asset: timing.asset, entry: timing.entry)))
        }, decode: { bytes throws(TesseraError) in
            let timing = try parse(Timing.self, bytes)
            return AssetAnimation(asset: timing.asset, entry: timing.entry)
        })
    }

    /// The manifest job; `file` is its file under the root when it writes one. Its metadata is
    /// the warnings' JSON, a newline, then the manifest's JSON (compact JSON has no raw newline),
    /// so a hit reads the warnings without decoding the manifest (`BuiltManifest`).
    static func manifest(root: String, file: String?) -> JobCaching {
        JobCaching(root: root, encode: { value throws(TesseraError) in
            let built: BuiltManifest = try cast(value)
            guard let manifest = built.manifest else {
                throw TesseraError(.internalFailure, reason: "the manifest to cache does not decode")
            }
            let warnings = try json(built.warnings.map { [$0.source, $0.text] })
            return CachedResult(files: file.map { [$0] } ?? [], metadata: warnings + [0x0A] + (try json(manifest)))
        }, decode: { bytes throws(TesseraError) in
            guard let newline = bytes.firstIndex(of: 0x0A) else {
                throw TesseraError(.invalidInput, reason: "a cache entry's metadata is not a manifest job's result")
            }
            let warnings = try parse([[String]].self, Array(bytes[..<newline]))
            return BuiltManifest(encodedManifest: Array(bytes[(newline + 1)...]), warnings: warnings.compactMap {
                $0.count == 2 ? SourceWarning(source: $0[0], text: $0[1]) : nil
            })
        })
    }

    static func slice(root: String, devices: [String]) -> JobCaching {
        JobCaching(root: root, encode: { value throws(TesseraError) in
            let count: Int = try cast(value)
            return CachedResult(files: devices.map { "slices/\($0).json" }, metadata: try json(count))
        }, decode: { bytes throws(TesseraError) in try parse(Int.self, bytes) })
    }

    /// A bundle: its index is read back from the restored file rather than stored twice.
    static func bundle(root: String) -> JobCaching {
        JobCaching(root: root, encode: { value throws(TesseraError) in
            let written: WrittenBundle = try cast(value)
            let file = written.file.map { Bundle.File(bytes: $0.bytes, sha256: $0.sha256) }
            return CachedResult(files: written.file == nil ? [] : [written.path],
                                metadata: try json(Bundle(pack: written.pack, path: written.path, file: file)),
                                knownHashes: written.file.map { [written.path: $0.sha256] } ?? [:])
        }, decode: { bytes throws(TesseraError) in
            let bundle = try parse(Bundle.self, bytes)
            guard let file = bundle.file else { return WrittenBundle(pack: bundle.pack, path: bundle.path, file: nil) }
            let index = try BundleFile(path: "\(root)/\(bundle.path)").index
            return WrittenBundle(pack: bundle.pack, path: bundle.path,
                                 file: WrittenBundleFile(bytes: file.bytes, sha256: file.sha256, index: index))
        })
    }

    /// The publish job: `manifest.json` with packs and bundles, and Apple's manifests.
    static func publish(root: String, manifestFile: String) -> JobCaching {
        JobCaching(root: root, encode: { value throws(TesseraError) in
            let published: PublishedManifest = try cast(value)
            return CachedResult(files: [manifestFile] + AppleManifests(manifest: published.manifest).fileNames,
                                metadata: try json(Published(manifest: published.manifest, warnings: published.warnings)))
        }, decode: { bytes throws(TesseraError) in
            let published = try parse(Published.self, bytes)
            return PublishedManifest(manifest: published.manifest, warnings: published.warnings)
        })
    }

    private struct Variant: Codable {
        let asset: AssetID
        let entry: VariantEntry
        let warnings: [String]
    }

    private struct Bitmap: Codable {
        let asset: AssetID
        let scale: DisplayScale
        let entry: ReadyBitmapEntry
    }

    private struct Timing: Codable {
        let asset: AssetID
        let entry: AnimationEntry
    }

    private struct Bundle: Codable {
        struct File: Codable {
            let bytes: Int
            let sha256: ContentHash
        }
        let pack: String
        let path: String
        let file: File?
    }

    private struct Published: Codable {
        let manifest: Manifest
        let warnings: [String]
    }

    private static func cast<T>(_ value: any Sendable) throws(TesseraError) -> T {
        guard let typed = value as? T else {
            throw TesseraError(.internalFailure, reason: "cannot cache a \(type(of: value)) as \(T.self)")
        }
        return typed
    }

    private static func json<T: Encodable>(_ value: T) throws(TesseraError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return Array(try encoder.encode(value))
        } catch {
            throw TesseraError(.internalFailure, reason: "cannot encode \(T.self) for the cache: \(error)")
        }
    }

    private static func parse<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws(TesseraError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw TesseraError(.invalidInput, reason: "a cache entry's metadata is not a \(T.self): \(error)")
        }
    }
}
