import Delivery
import Foundation
import TesseraCore

/// The bundles on this device, each unpacked into `bundles/<sha256>/` by one atomic rename, and
/// the state that says which tags they hold. Safe at every point of a crash: a bundle folder
/// appears whole or not at all, the state file is replaced atomically, and opening reconciles the
/// two (folders the state does not list are removed, entries whose folder is gone are dropped),
/// while partial downloads are kept so they resume.
actor LocalStore {
    let root: String
    private var state: StoreState
    /// Accesses in progress per bundle (by SHA-256 hex): pinned bundles are never purged.
    private var pins: [String: Int] = [:]

    var bundlesFolder: String { "\(root)/bundles" }
    var partialFolder: String { "\(root)/partial" }
    private var statePath: String { "\(root)/state.json" }

    init(root: String) throws(TesseraError) {
        self.root = root
        let files = FileManager.default
        for folder in ["\(root)/bundles", "\(root)/partial"] {
            do { try files.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw TesseraError(.io, file: folder, stage: .client, reason: "cannot create the store folder: \(error.localizedDescription)")
            }
        }
        // A state file that cannot be read describes nothing: start empty, and reconcile below removes what it listed.
        var loaded = files.contents(atPath: "\(root)/state.json").flatMap { try? JSONDecoder().decode(StoreState.self, from: $0) }
            ?? StoreState()
        let present = Set((try? files.contentsOfDirectory(atPath: "\(root)/bundles")) ?? [])
        for name in present where loaded.bundles[name] == nil {
            try? files.removeItem(atPath: "\(root)/bundles/\(name)")
        }
        loaded.bundles = loaded.bundles.filter { present.contains($0.key) }
        for name in (try? files.contentsOfDirectory(atPath: "\(root)/partial")) ?? [] {
            let stem = name.split(separator: ".").first.map(String.init) ?? name
            if name.hasPrefix(AtomicFile.temporaryPrefix) || loaded.bundles[stem] != nil {
                try? files.removeItem(atPath: "\(root)/partial/\(name)")
            }
        }
        try StoreState.save(loaded, to: "\(root)/state.json")
        state = loaded
    }

    func isInstalled(_ sha256: ContentHash) -> Bool { state.bundles[sha256.hex] != nil }

    func folder(of sha256: ContentHash) -> String { "\(bundlesFolder)/\(sha256.hex)" }

    func partial(for bundle: BundleEntry) -> PartialFile { PartialFile(folder: partialFolder, name: bundle.sha256.hex) }

    /// Unpacks a verified download into place and records it; the partial file goes last, so a
    /// crash before that only leaves a download reopening deletes.
    func install(_ partial: PartialFile, as bundle: BundleEntry, tags: [String]) throws(TesseraError) {
        let hex = bundle.sha256.hex
        if state.bundles[hex] == nil {
            let target = folder(of: bundle.sha256)
            try? FileManager.default.removeItem(atPath: target)
            try BundleExtractor.extract(try BundleFile(path: partial.path), into: target)
            let now = state.useCounter
            state.bundles[hex] = StoreState.Installed(bytes: bundle.uncompressedSize, tags: tags, lastUsed: now)
            try save()
        }
        partial.remove()
    }

    /// Records a bundle folder assembled from local entries and objects (`BundleAssembly`),
    /// moving it into place by one rename; `folder` must be on the store's volume.
    func installAssembled(_ folder: String, as bundle: BundleEntry, tags: [String]) throws(TesseraError) {
        let hex = bundle.sha256.hex
        guard state.bundles[hex] == nil else {
            try? FileManager.default.removeItem(atPath: folder)
            return
        }
        let target = self.folder(of: bundle.sha256)
        try? FileManager.default.removeItem(atPath: target)
        do { try FileManager.default.moveItem(atPath: folder, toPath: target) } catch {
            throw TesseraError(.io, file: target, stage: .client, reason: "cannot rename into place: \(error.localizedDescription)")
        }
        state.bundles[hex] = StoreState.Installed(bytes: bundle.uncompressedSize, tags: tags, lastUsed: state.useCounter)
        try save()
    }

    /// Removes bundles a newer generation replaced, except those an access still pins (those
    /// go when a purge finds them unpinned). The record goes first, as in `purge`.
    func retire(_ hashes: [ContentHash]) throws(TesseraError) {
        for hash in hashes where pins[hash.hex] == nil && state.bundles[hash.hex] != nil {
            state.bundles[hash.hex] = nil
            try save()
            try? FileManager.default.removeItem(atPath: folder(of: hash))
        }
    }

    /// Pins bundles for an access and marks them used now.
    func pin(_ hashes: [ContentHash]) throws(TesseraError) {
        state.useCounter += 1
        let now = state.useCounter
        for hash in hashes {
            pins[hash.hex, default: 0] += 1
            state.bundles[hash.hex]?.lastUsed = now
        }
        try save()
    }

    func unpin(_ hashes: [ContentHash]) {
        for hash in hashes {
            pins[hash.hex, default: 0] -= 1
            if pins[hash.hex] ?? 0 <= 0 { pins[hash.hex] = nil }
        }
    }

    func setPreservationPriority(_ priority: Double, for tags: [String]) throws(TesseraError) {
        for tag in tags { state.preservationPriority[tag] = priority }
        try save()
    }

    /// Bytes the installed bundles take, unpacked.
    var installedBytes: Int { state.bundles.values.reduce(0) { $0 + $1.bytes } }

    var installedHashes: [ContentHash] { state.bundles.keys.compactMap(ContentHash.init(hex:)).sorted() }

    /// Removes unpinned bundles, lowest preservation priority first, then least recently used,
    /// until the store takes at most `limit` bytes (or only pinned bundles are left).
    func purge(toFit limit: Int) throws(TesseraError) -> PurgeResult {
        var result = PurgeResult(evicted: [], freedBytes: 0, remainingBytes: installedBytes)
        let candidates = state.bundles.filter { pins[$0.key] == nil }
            .sorted { (state.priority(of: $0.value), $0.value.lastUsed, $0.key) < (state.priority(of: $1.value), $1.value.lastUsed, $1.key) }
        for (hex, bundle) in candidates where result.remainingBytes > limit {
            // The record goes first: a crash then leaves a folder reopening removes, never a record without files.
            state.bundles[hex] = nil
            try save()
            try? FileManager.default.removeItem(atPath: "\(bundlesFolder)/\(hex)")
            result.evicted.append(ContentHash(hex: hex)!)
            result.freedBytes += bundle.bytes
            result.remainingBytes -= bundle.bytes
        }
        return result
    }

    private func save() throws(TesseraError) {
        try StoreState.save(state, to: statePath)
    }
}

/// What `purge(toFit:)` removed.
public struct PurgeResult: Sendable, Equatable {
    /// SHA-256s of the bundles removed, in the order they went.
    public var evicted: [ContentHash]
    public var freedBytes: Int
    public var remainingBytes: Int
}

extension StoreState {
    static func save(_ state: StoreState, to path: String) throws(TesseraError) {
        try AtomicFile.write(try StableJSON.encode(state), to: path)
    }
}
