import Delivery
import Dispatch
import Foundation
import Synchronization
import TesseraCore

/// The last step of every build, built or restored: each file `manifest.json` lists is on disk
/// with exactly the size and SHA-256 the manifest gives it. A file changed after it was written,
/// or a cache entry that named other bytes than the job made (a poisoned remote cache), fails
/// the build here, by name, instead of shipping under a manifest that vouches for other bytes.
///
/// Hashes come through the build's `FileHashing`: with a cache its fingerprint index answers for
/// files whose size, times and inode are unchanged since they were hashed, so a no-op run reads
/// only what changed; anything restored or edited since is read and hashed again.
enum OutputConsistency {
    struct Listed: Sendable {
        var path: String
        /// The size on disk.
        var bytes: Int
        /// Of the bytes on disk, or of what they decode to for an xz object.
        var sha256: ContentHash
        /// For an object stored as xz (`TransferObject`): the size it decodes to.
        var xzDecodedBytes: Int? = nil

        init(path: String, bytes: Int, sha256: ContentHash, xzDecodedBytes: Int? = nil) {
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
            self.xzDecodedBytes = xzDecodedBytes
        }

        /// An object as the manifest lists it: checked by what it decodes to.
        init(_ object: TransferObject) {
            self.init(path: object.path, bytes: object.transferBytes, sha256: object.sha256,
                      xzDecodedBytes: object.encoding == .xz ? object.bytes : nil)
        }
    }

    /// Every file the manifest lists, with its promised size and hash.
    static func listed(in manifest: Manifest) -> [Listed] {
        var files: [Listed] = []
        for asset in manifest.assets {
            for variant in asset.variants {
                files.append(Listed(path: variant.path, bytes: variant.bytes, sha256: variant.sha256))
                if let bitmap = variant.readyBitmap { files.append(Listed(path: bitmap.path, bytes: bitmap.bytes, sha256: bitmap.sha256)) }
            }
            if let vector = asset.vector { files.append(Listed(path: vector.path, bytes: vector.bytes, sha256: vector.sha256)) }
        }
        for item in manifest.data + (manifest.app ?? []) {
            files.append(Listed(path: item.path, bytes: item.bytes, sha256: item.sha256))
        }
        for bundle in manifest.bundles {
            files.append(Listed(path: bundle.path, bytes: bundle.bytes, sha256: bundle.sha256))
        }
        files += (manifest.objects ?? []).map(Listed.init)
        var seen: Set<String> = []
        return files.filter { seen.insert($0.path).inserted }
    }

    /// The files the manifest at `path` lists, decoded for just their paths, sizes and hashes: a
    /// restored build checks its files without decoding the whole manifest (a tenth of a no-op
    /// run's time went to `JSONDecoder` building assets, traits and packs it never read).
    static func listed(inManifestAt path: String) throws(TesseraError) -> [Listed] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.io, file: path, origin: .run, reason: "cannot read the manifest")
        }
        let files: ListedFiles
        do { files = try JSONDecoder().decode(ListedFiles.self, from: data) } catch {
            throw TesseraError(.invalidInput, file: path, origin: .run, reason: "not a manifest Tessera wrote: \(error)")
        }
        var listed: [Listed] = []
        for asset in files.assets {
            for variant in asset.variants {
                listed.append(Listed(path: variant.path, bytes: variant.bytes, sha256: variant.sha256))
                if let bitmap = variant.readyBitmap { listed.append(bitmap.listed) }
            }
            if let vector = asset.vector { listed.append(vector.listed) }
        }
        listed += (files.data + (files.app ?? []) + files.bundles).map(\.listed)
        listed += (files.objects ?? []).map(Listed.init)
        var seen: Set<String> = []
        return listed.filter { seen.insert($0.path).inserted }
    }

    /// The parts of `manifest.json` the check reads, under the manifest's own keys.
    private struct ListedFiles: Decodable {
        struct File: Decodable {
            let path: String
            let bytes: Int
            let sha256: ContentHash
            var listed: Listed { Listed(path: path, bytes: bytes, sha256: sha256) }
        }
        struct Variant: Decodable {
            let path: String
            let bytes: Int
            let sha256: ContentHash
            let readyBitmap: File?
        }
        struct Asset: Decodable {
            let variants: [Variant]
            let vector: File?
        }
        let assets: [Asset]
        let data: [File]
        let app: [File]?
        let bundles: [File]
        let objects: [TransferObject]?
    }

    /// The files under `outputFolder` that differ from what `manifest` says, one error each,
    /// checked on every core.
    static func check(_ manifest: Manifest, outputFolder: String, hashing: any FileHashing) -> [BuildProblem] {
        check(listed(in: manifest), outputFolder: outputFolder, hashing: hashing)
    }

    /// The files of `files` under `outputFolder` that differ from what they promise.
    static func check(_ files: [Listed], outputFolder: String, hashing: any FileHashing) -> [BuildProblem] {
        let problems = Mutex<[BuildProblem]>([])
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            let path = "\(outputFolder)/\(file.path)"
            let reason: String?
            var info = stat()
            if stat(path, &info) == 0 {
                let size = Int(info.st_size)
                if size != file.bytes {
                    reason = "is \(size) bytes, not the \(file.bytes) manifest.json lists"
                } else if let decodedBytes = file.xzDecodedBytes {
                    // An xz object: what a device decodes is what the manifest vouches for.
                    let decoded = FileManager.default.contents(atPath: path)
                        .flatMap { try? XZ.decompress([UInt8]($0), expectedSize: decodedBytes) }
                    reason = decoded.map(ContentHash.of) == file.sha256 ? nil
                        : "does not decode to the \(decodedBytes) bytes of SHA-256 \(file.sha256.hex.prefix(16))… manifest.json lists"
                } else if let hash = try? hashing.contentHash(ofFileAt: path) {
                    reason = hash == file.sha256 ? nil
                        : "does not hash to the SHA-256 manifest.json lists (\(file.sha256.hex.prefix(16))…, found \(hash.hex.prefix(16))…)"
                } else {
                    reason = "cannot be read"
                }
            } else {
                reason = "is missing"
            }
            guard let reason else { return }
            problems.withLock {
                $0.append(BuildProblem(severity: .error, file: path, stage: .run,
                                       reason: "\(file.path) \(reason): it was changed after it was written, or a cache entry named other bytes than this build makes; nothing under this output folder can be trusted (rebuild with --no-cache, and check who can write the cache: docs/caching.md)"))
            }
        }
        return problems.withLock { $0 }.sorted()
    }
}
