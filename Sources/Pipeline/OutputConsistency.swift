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
        var bytes: Int
        var sha256: ContentHash
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
        var seen: Set<String> = []
        return files.filter { seen.insert($0.path).inserted }
    }

    /// The files under `outputFolder` that differ from what `manifest` says, one error each,
    /// checked on every core.
    static func check(_ manifest: Manifest, outputFolder: String, hashing: any FileHashing) -> [BuildProblem] {
        let files = listed(in: manifest)
        let problems = Mutex<[BuildProblem]>([])
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            let path = "\(outputFolder)/\(file.path)"
            let reason: String?
            if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int {
                if size != file.bytes {
                    reason = "is \(size) bytes, not the \(file.bytes) manifest.json lists"
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
