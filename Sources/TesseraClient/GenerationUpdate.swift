import Delivery
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TesseraCore

/// The step between two generations (`docs/updates.md`): before a newer manifest replaces the
/// one in use, every installed bundle it changes is made complete in its new form — from the
/// entries the device holds plus the objects it lacks, or fetched whole when that is cheaper
/// or the objects fail. Nothing here touches the manifest in use or the bundles it lists, so
/// whatever fails (offline, a refused object, a crash) leaves the store on the last verified
/// generation, never a mix.
extension TesseraClient {
    /// Makes every bundle of `next` that replaces an installed bundle of `held` (same pack and
    /// device, other SHA-256) installed; returns the installed bundles so replaced, for the
    /// caller to retire once `next` is the manifest in use.
    func updateInstalledBundles(from held: Manifest, to next: Manifest) async throws(TesseraError) -> [ContentHash] {
        let installed = Set(await store.installedHashes)
        let replacements = BundleReplacements(from: held, to: next, installed: installed)
        let superseded = replacements.superseded, wanted = replacements.wanted
        guard !wanted.isEmpty else { return superseded }

        let local = BundleAssembly.localEntries(of: held, installed: installed, bundlesFolder: "\(store.root)/bundles")
        let objects = BundleEntryObjects(next)
        var assemblies: [BundleAssembly] = []
        var whole: [BundleEntry] = []
        for bundle in wanted {
            switch BundleUpdatePlan.way(for: bundle, objects: objects, held: { local[$0] != nil }, share: configuration.wholeBundleShare) {
            case .objects(let plan): assemblies.append(BundleAssembly(plan, local: local))
            case .whole(let bundle): whole.append(bundle)
            }
        }
        var reasons: [String] = []
        if !assemblies.isEmpty {
            var needed: [ContentHash: TransferObject] = [:]
            for assembly in assemblies { for object in assembly.missing { needed[object.sha256] = object } }
            let failures = await fetchObjects(needed.values.sorted { $0.sha256 < $1.sha256 })
            reasons += failures.values.map(\.description).sorted()
            let tagsOfPack = Dictionary(next.packs.map { ($0.id, $0.tags) }, uniquingKeysWith: { first, _ in first })
            for assembly in assemblies {
                // A bundle with an object that failed is fetched whole: that is the fallback.
                if assembly.missing.contains(where: { failures[$0.sha256] != nil }) {
                    whole.append(assembly.bundle)
                    continue
                }
                do throws(TesseraError) {
                    try await install(assembly, tags: tagsOfPack[assembly.bundle.pack] ?? [])
                } catch {
                    if error.kind == .cancelled { throw error }
                    reasons.append(error.description)
                    whole.append(assembly.bundle)
                }
            }
            for object in needed.keys { try? FileManager.default.removeItem(atPath: stagedPath(of: object)) }
        }
        if !whole.isEmpty {
            do throws(TesseraError) {
                try await download(whole, tagsFrom: next, priority: 0.5, progress: nil)
            } catch {
                guard !reasons.isEmpty, error.kind != .cancelled else { throw error }
                var located = error
                located.reason += " (fetched whole after: \(reasons.joined(separator: "; ")))"
                throw located
            }
        }
        return superseded
    }

    /// Where a fetched object's decoded contents wait for the bundles that need them.
    nonisolated func stagedPath(of object: ContentHash) -> String { "\(store.root)/partial/\(object.hex).object" }

    /// Fetches `objects`, `maxConcurrentDownloads` at a time; returns the failures by object.
    private func fetchObjects(_ objects: [TransferObject]) async -> [ContentHash: TesseraError] {
        let configuration = self.configuration
        let downloader = ObjectDownloader(attempts: configuration.attemptsPerBundle, timeout: configuration.requestTimeout,
                                          deadline: configuration.responseDeadline,
                                          minimumBytesPerSecond: configuration.minimumBytesPerSecond, priority: 0.5)
        let partialFolder = "\(store.root)/partial"
        return await withTaskGroup(of: (ContentHash, TesseraError?).self) { group -> [ContentHash: TesseraError] in
            var next = objects.makeIterator()
            var failures: [ContentHash: TesseraError] = [:]
            func start() {
                guard let object = next.next() else { return }
                let destination = stagedPath(of: object.sha256)
                let url = configuration.url(of: object)
                group.addTask {
                    // Verified by an earlier attempt whose bundles then failed: no need to fetch it again.
                    if (try? ContentHash.ofFile(at: destination)) == object.sha256 { return (object.sha256, nil) }
                    let partial = PartialFile(folder: partialFolder, name: "\(object.sha256.hex).object")
                    do throws(TesseraError) {
                        try await downloader.fetch(object, from: url, into: partial, destination: destination, progress: { _ in })
                        return (object.sha256, nil)
                    } catch {
                        return (object.sha256, error)
                    }
                }
            }
            for _ in 0..<configuration.maxConcurrentDownloads { start() }
            while let (object, failure) = await group.next() {
                if let failure { failures[object] = failure }
                start()
            }
            return failures
        }
    }

    /// Assembles one bundle's folder beside the installed ones, off the actor (it copies every
    /// entry), and installs it by one rename.
    private func install(_ assembly: BundleAssembly, tags: [String]) async throws(TesseraError) {
        let temporary = "\(store.root)/bundles/\(AtomicFile.temporaryPrefix)\(UUID().uuidString)"
        do throws(TesseraError) {
            try await Self.assemble(assembly, into: temporary, staged: { self.stagedPath(of: $0) })
            try await store.installAssembled(temporary, as: assembly.bundle, tags: tags)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    private nonisolated static func assemble(_ assembly: BundleAssembly, into folder: String,
                                             staged: @Sendable (ContentHash) -> String) async throws(TesseraError) {
        try assembly.assemble(into: folder, staged: staged)
    }
}
