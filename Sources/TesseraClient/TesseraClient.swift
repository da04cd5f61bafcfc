import Delivery
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TesseraCore

/// Loads tagged bundles on demand from a build folder on a static host or `tessera serve`.
///
/// Which bundles a device needs comes from `DeviceQuery`, the code `tessera query` and the server
/// answer with, so all three agree. Bundles are downloaded (resumable, verified), unpacked into
/// the local store, and pinned while a `ResourceRequest` accesses them.
public actor TesseraClient {
    public let configuration: ClientConfiguration
    let store: LocalStore
    nonisolated let manifests: ManifestCache
    private var manifest: Manifest?
    /// Downloads under way, by bundle: a second access needing the same bundle joins the first's.
    private var inFlight: [ContentHash: Task<Void, any Error>] = [:]
    /// How the last manifest refresh went (nil before the first).
    public private(set) var lastRefresh: RefreshOutcome?

    public enum RefreshOutcome: Sendable, Equatable {
        case updated, notModified
        /// The server could not be reached or answered badly; the last verified manifest is in use.
        case offline(reason: String)
        /// As `offline`, and the last verified manifest's signature has expired since (only with a
        /// `trustedRoot`): it is still used, but it may no longer be what the publisher serves.
        case stale(reason: String)
    }

    /// Opens (or creates) the store; its last verified manifest is available offline at once.
    public init(configuration: ClientConfiguration) throws(TesseraError) {
        self.configuration = configuration
        store = try LocalStore(root: configuration.storeFolder.path)
        let trust = configuration.trustedRoot.map {
            ManifestTrust(verifier: TrustVerifier(pinned: $0, channel: configuration.channel), manifestURL: configuration.manifestURL,
                          folder: configuration.storeFolder.path)
        }
        manifests = ManifestCache(url: configuration.manifestURL, folder: configuration.storeFolder.path,
                                  timeout: configuration.requestTimeout, deadline: configuration.responseDeadline, trust: trust,
                                  usesUpdateIndex: configuration.usesUpdateIndex)
        manifest = manifests.stored()
    }

    /// Fetches the manifest if it changed (`If-None-Match`); unreachable, the last verified one is used.
    /// With a `trustedRoot`, its signature is fetched and checked too (`docs/security.md`): a
    /// manifest that fails is refused with an `.untrusted` error naming its URL and the reason,
    /// and the store (and the manifest in use) stay as they were.
    /// A newer manifest becomes the one in use (a new generation) only once every installed
    /// bundle it changes is complete in its new form (`updateInstalledBundles`); until then, and
    /// when any of that fails, the store stays on the manifest it had, reported `.offline` with
    /// the URL and the reason.
    @discardableResult
    public func refreshManifest() async throws(TesseraError) -> Manifest {
        let fresh: Manifest, outcome: ManifestCache.Outcome
        switch try await manifests.fetch() {
        case .settled(let manifest, let settled):
            (fresh, outcome) = (manifest, settled)
        case .candidate(let candidate):
            var superseded: [ContentHash] = []
            if candidate.isNew, let held = candidate.kept {
                do throws(TesseraError) {
                    superseded = try await updateInstalledBundles(from: held.manifest, to: candidate.manifest)
                } catch {
                    if error.kind == .cancelled { throw error }
                    (fresh, outcome) = try manifests.offline(error, held)
                    return settle(fresh, outcome)
                }
            }
            (fresh, outcome) = try manifests.commit(candidate)
            // A concurrent refresh may have committed another manifest: keep what it lists.
            let listed = Set(fresh.bundles.map(\.sha256))
            try await store.retire(superseded.filter { !listed.contains($0) })
        }
        return settle(fresh, outcome)
    }

    private func settle(_ fresh: Manifest, _ outcome: ManifestCache.Outcome) -> Manifest {
        manifest = fresh
        switch outcome {
        case .updated: lastRefresh = .updated
        case .notModified: lastRefresh = .notModified
        case .offline(let reason): lastRefresh = .offline(reason: reason)
        case .stale(let reason): lastRefresh = .stale(reason: reason)
        }
        return fresh
    }

    /// The manifest in use: the last refreshed or stored one; refreshed first when there is none.
    public func currentManifest() async throws(TesseraError) -> Manifest {
        if let manifest { return manifest }
        return try await refreshManifest()
    }

    /// The query answer for this device and `tags`: every bundle the build would have it
    /// download, in order (initial-install, prefetch by priority, then the tags' packs).
    public func plan(tags: [String]) async throws(TesseraError) -> BundleQuery.Answer {
        try DeviceQuery.answer(try await currentManifest(), device: configuration.device, tags: tags)
    }

    /// Downloads the prefetch packs (and initial-install ones) that are not local yet, in the
    /// build's prefetch order, without pinning them.
    public func prefetch() async throws(TesseraError) {
        let manifest = try await refreshManifest()
        let answer = try DeviceQuery.answer(manifest, device: configuration.device, tags: [])
        try await download(Self.bundles(of: answer.bundles, in: manifest, device: answer.device), tagsFrom: manifest,
                           priority: URLSessionTask.lowPriority, progress: nil)
    }

    public func setPreservationPriority(_ priority: Double, forTags tags: [String]) async throws(TesseraError) {
        try await store.setPreservationPriority(priority, for: tags)
    }

    /// Frees space: see `PurgeResult`; bundles in use are never removed.
    public func purge(toFit limit: Int) async throws(TesseraError) -> PurgeResult {
        try await store.purge(toFit: limit)
    }

    /// Bytes the installed bundles take, unpacked.
    public var installedBytes: Int { get async { await store.installedBytes } }

    /// The SHA-256s of the bundles installed.
    public var installedBundles: [ContentHash] { get async { await store.installedHashes } }

    /// Starts an access: refreshes the manifest, pins the bundles `tags` need (with the
    /// initial-install ones), downloads the missing ones, and returns what the access sees.
    func beginAccess(tags: [String], onlyIfLocal: Bool, priority: Float,
                     progress: (@Sendable (AccessProgress) -> Void)?) async throws(TesseraError) -> Access {
        guard !onlyIfLocal || manifest != nil else {
            throw TesseraError(.io, origin: .client, reason: "no manifest stored yet")
        }
        let manifest = onlyIfLocal ? try await currentManifest() : try await refreshManifest()
        let answer = try DeviceQuery.answer(manifest, device: configuration.device, tags: tags)
        let wanted = Set(tags)
        let items = answer.bundles.filter { $0.category == .initialInstall || !wanted.isDisjoint(with: $0.tags) }
        let bundles = Self.bundles(of: items, in: manifest, device: answer.device)
        let hashes = bundles.map(\.sha256)
        if onlyIfLocal {
            for hash in hashes where !(await store.isInstalled(hash)) {
                throw TesseraError(.io, origin: .client, reason: "not local: \(hash.hex)")
            }
        }
        // Pinned before downloading, so a purge running meanwhile cannot take what is being installed.
        try await store.pin(hashes)
        do {
            try await download(bundles, tagsFrom: manifest, priority: priority, progress: progress)
        } catch {
            await store.unpin(hashes)
            throw error
        }
        var folders: [ContentHash: String] = [:]
        for hash in hashes { folders[hash] = await store.folder(of: hash) }
        return Access(manifest: manifest, device: answer.device, bundles: bundles, folders: folders)
    }

    func endAccess(_ access: Access) async {
        await store.unpin(access.bundles.map(\.sha256))
    }

    /// Fetches what is missing, `maxConcurrentDownloads` at a time, starting them in the given order.
    func download(_ bundles: [BundleEntry], tagsFrom manifest: Manifest, priority: Float,
                          progress: (@Sendable (AccessProgress) -> Void)?) async throws(TesseraError) {
        var missing: [BundleEntry] = []
        for bundle in bundles where !(await store.isInstalled(bundle.sha256)) { missing.append(bundle) }
        let total = bundles.reduce(0) { $0 + $1.bytes }
        let meter = ProgressMeter(done: total - missing.reduce(0) { $0 + $1.bytes }, total: total, report: progress)
        meter.publish()
        let downloader = BundleDownloader(attempts: configuration.attemptsPerBundle, timeout: configuration.requestTimeout,
                                          deadline: configuration.responseDeadline,
                                          minimumBytesPerSecond: configuration.minimumBytesPerSecond,
                                          priority: priority, reservedDiskBytes: configuration.reservedDiskBytes)
        let configuration = self.configuration
        let tagsOfPack = Dictionary(manifest.packs.map { ($0.id, $0.tags) }, uniquingKeysWith: { first, _ in first })
        let outcome = await withTaskGroup(of: TesseraError?.self) { group -> TesseraError? in
            var next = missing.makeIterator()
            var failure: TesseraError?
            func start() -> Bool {
                guard let bundle = next.next() else { return false }
                group.addTask {
                    let key = bundle.sha256.hex
                    do {
                        try await self.fetchOnce(bundle, tags: tagsOfPack[bundle.pack] ?? [], downloader: downloader) {
                            meter.update(key, bytes: $0)
                        }
                        return nil
                    } catch {
                        return error as? TesseraError ?? TesseraError.wrapping(error, origin: .client)
                    }
                }
                return true
            }
            for _ in 0..<configuration.maxConcurrentDownloads where start() {}
            // `next()`, not `for await`: the loop body adds tasks, which iteration's access to the group forbids.
            while let result = await group.next() {
                if let result {
                    failure = failure ?? result
                    group.cancelAll()
                } else if failure == nil {
                    _ = start()
                }
            }
            return failure
        }
        if let outcome { throw outcome }
        meter.publish()
    }

    /// Fetches and installs one bundle, or joins the download of it already under way.
    func fetchOnce(_ bundle: BundleEntry, tags: [String], downloader: BundleDownloader,
                           progress: @escaping @Sendable (Int) -> Void) async throws(TesseraError) {
        if await store.isInstalled(bundle.sha256) { return }
        let task: Task<Void, any Error>
        if let running = inFlight[bundle.sha256] {
            task = running
        } else {
            let store = self.store, url = configuration.url(of: bundle)
            task = Task {
                let partial = await store.partial(for: bundle)
                try await downloader.fetch(url, bytes: bundle.bytes, sha256: bundle.sha256, into: partial, progress: progress)
                try await store.install(partial, as: bundle, tags: tags)
            }
            inFlight[bundle.sha256] = task
        }
        defer { if inFlight[bundle.sha256] == task { inFlight[bundle.sha256] = nil } }
        do {
            try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        } catch {
            throw TesseraError.wrapping(error, file: url(of: bundle), origin: .client)
        }
    }

    private func url(of bundle: BundleEntry) -> String { configuration.url(of: bundle).absoluteString }

    static func bundles(of items: [BundleQuery.Answer.Item], in manifest: Manifest, device: String) -> [BundleEntry] {
        items.compactMap { item in manifest.bundles.first { $0.pack == item.pack && $0.device == device } }
    }
}

/// What an access sees: the manifest and bundles as they were when it began, so a new build
/// published meanwhile changes nothing for it.
struct Access: Sendable {
    var manifest: Manifest
    var device: String
    var bundles: [BundleEntry]
    var folders: [ContentHash: String]
    /// Its assets by name and folders resolved, for `ResourceRequest`'s lookups.
    let lookup = AccessLookup.Lazy()
}

/// Adds up the bytes of parallel downloads for one progress stream.
private final class ProgressMeter: @unchecked Sendable {
    private let lock = NSLock()
    private let done: Int
    private let total: Int
    private var partial: [String: Int] = [:]
    private let report: (@Sendable (AccessProgress) -> Void)?

    init(done: Int, total: Int, report: (@Sendable (AccessProgress) -> Void)?) {
        self.done = done
        self.total = total
        self.report = report
    }

    func update(_ key: String, bytes: Int) {
        lock.withLock { partial[key] = bytes }
        publish()
    }

    func publish() {
        let completed = lock.withLock { done + partial.values.reduce(0, +) }
        report?(AccessProgress(completedBytes: min(completed, total), totalBytes: total))
    }
}
