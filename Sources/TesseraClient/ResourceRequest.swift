import Delivery
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TesseraCore

/// Access to the assets of some on-demand tags, as `NSBundleResourceRequest` gives on iOS.
///
/// `beginAccessing()` makes the tags' bundles local (downloading what is missing) and keeps them
/// from being purged until `endAccessing()`; in between, `url(for:)`, `data(for:)` and
/// `bitmap(for:)` read the asset variants made for this device. The access keeps seeing the build
/// it began with even if a newer one is published meanwhile.
public final class ResourceRequest: @unchecked Sendable {
    public let tags: Set<String>
    public let client: TesseraClient
    /// Progress of `beginAccessing()`: bytes local and verified out of all the tags need.
    public let progress: AsyncStream<AccessProgress>
    private let progressSink: AsyncStream<AccessProgress>.Continuation
    private let lock = NSLock()
    private var access: Access?
    private var priority = 0.5

    public init(tags: Set<String>, client: TesseraClient) {
        self.tags = tags
        self.client = client
        (progress, progressSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
    }

    deinit { progressSink.finish() }

    /// 0 (lowest) to 1 (`NSBundleResourceRequestLoadingPriorityUrgent`): the downloads' URLSession priority.
    public var loadingPriority: Double {
        get { lock.withLock { priority } }
        set { lock.withLock { priority = min(1, max(0, newValue)) } }
    }

    /// Makes the tags local, downloading what is missing, and begins the access. Throws, with the
    /// URL and reason, when a bundle cannot be fetched and verified; nothing unverified is used.
    public func beginAccessing() async throws(TesseraError) {
        if lock.withLock({ access != nil }) { return }
        let sink = progressSink
        let begun = try await client.beginAccess(tags: tags.sorted(), onlyIfLocal: false, priority: Float(loadingPriority),
                                                 progress: { sink.yield($0) })
        keep(begun)
    }

    /// Begins the access only when every bundle the tags need is already local and verified, with
    /// no network use; true when it did.
    public func conditionallyBeginAccessing() async -> Bool {
        if lock.withLock({ access != nil }) { return true }
        guard let begun = try? await client.beginAccess(tags: tags.sorted(), onlyIfLocal: true, priority: 0, progress: nil) else {
            return false
        }
        keep(begun)
        return true
    }

    /// Ends the access: its bundles may be purged again (a superseded build's too, once no access uses them).
    public func endAccessing() async {
        guard let begun = lock.withLock({ () -> Access? in defer { access = nil }; return access }) else { return }
        await client.endAccess(begun)
    }

    /// The file of `asset`'s variant for this device (an image set's image, or a data item's file).
    public func url(for asset: String) throws(TesseraError) -> URL {
        try url(for: asset, folder: "assets")
    }

    /// The contents of `asset`'s variant for this device.
    public func data(for asset: String) throws(TesseraError) -> Data {
        let url = try url(for: asset)
        do { return try Data(contentsOf: url) } catch {
            throw TesseraError(.io, file: url.path, origin: .client, reason: "cannot read: \(error.localizedDescription)")
        }
    }

    /// The ready-to-draw bitmap (`docs/bitmap-format.md`) of `asset`'s variant, memory-mapped:
    /// pages are read from the unpacked bundle as they are touched, never copied up front.
    public func bitmap(for asset: String) throws(TesseraError) -> Data {
        let url = try url(for: asset, folder: "bitmaps")
        do { return try Data(contentsOf: url, options: .alwaysMapped) } catch {
            throw TesseraError(.io, file: url.path, origin: .client, reason: "cannot map: \(error.localizedDescription)")
        }
    }

    /// How `asset` stretches when drawn larger than its size, as its catalog slices it (`resizing`:
    /// mode, centre, cap insets in points); nil when the catalog does not slice it. `image(named:)`
    /// applies it on Apple platforms; elsewhere an app draws with it itself.
    public func resizing(for asset: String) throws(TesseraError) -> ImageResizing? {
        guard let access = lock.withLock({ access }) else {
            throw TesseraError(.configuration, origin: .client, reason: "'\(asset)': call beginAccessing() first")
        }
        return access.lookup.value(access).asset(named: asset, in: access.manifest)?.resizing
    }

    /// The regular file `name` names under `root`, when it is there and, links resolved, still
    /// inside `root`; nil otherwise.
    static func file(named name: String, inside root: String) -> URL? {
        file(named: name, inside: root, resolved: resolved(root))
    }

    /// `root` with its links resolved: what a file inside it must start with.
    static func resolved(_ root: String) -> String {
        URL(fileURLWithPath: root).resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// As `file(named:inside:)`, with `root` resolved once for all the lookups of an access.
    static func file(named name: String, inside root: String, resolved folder: String) -> URL? {
        let file = URL(fileURLWithPath: root).appendingPathComponent(name).resolvingSymlinksInPath().standardizedFileURL
        var isFolder: ObjCBool = false
        guard file.path.hasPrefix(folder + "/"), FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder),
              !isFolder.boolValue else { return nil }
        return file
    }

    private func keep(_ begun: Access) {
        let extra = lock.withLock { () -> Access? in
            if access == nil { access = begun; return nil }
            return begun
        }
        // Two concurrent begins: the second's pins are released at once.
        if let extra { Task { await client.endAccess(extra) } }
    }

    private func url(for asset: String, folder: String) throws(TesseraError) -> URL {
        try file(for: asset, folder: folder).url
    }

    /// `asset`'s file for this device and the display scale it was made for (1 for a data item
    /// and a single-scale set): what `image(named:)` gives UIKit and AppKit.
    func file(for asset: String, folder: String = "assets") throws(TesseraError) -> (url: URL, scale: Int) {
        guard let access = lock.withLock({ access }) else {
            throw TesseraError(.configuration, origin: .client, reason: "'\(asset)': call beginAccessing() first")
        }
        let lookup = access.lookup.value(access)
        let candidates: [(name: String, scale: Int)]
        if let entry = lookup.asset(named: asset, in: access.manifest) {
            let variants = entry.variants.reversed()
            candidates = folder == "bitmaps"
                ? variants.compactMap { variant in
                    variant.readyBitmap.map { (BundleEntryName.entry(forOutput: $0.path, folder: folder), variant.scale.factor) }
                }
                : variants.map { (BundleEntryName.entry(forOutput: $0.path, folder: folder), $0.scale.factor) }
        } else {
            candidates = access.manifest.data.filter { $0.name.name == asset }.map { ($0.path, 1) }
        }
        // A name comes from the manifest, which nothing verified: it must be a safe entry name and
        // lead to a file of the verified bundle's extracted index, inside its folder — never
        // `variants/../../etc/passwd` appended to the store's path.
        for (name, _) in candidates {
            if let problem = BundleEntryName.problem(with: name) {
                throw TesseraError(.invalidInput, file: name, origin: .client,
                                   reason: "the manifest names '\(name)' for '\(asset)': \(problem); refused")
            }
        }
        // The bundles whose manifest entries name a candidate first, then (a bundle whose folder
        // holds more than its entries say) every one in order, as before there was a first pass.
        for listedOnly in [true, false] {
            for bundle in access.bundles {
                guard let root = access.folders[bundle.sha256], let folder = lookup.roots[bundle.sha256] else { continue }
                if listedOnly, !candidates.contains(where: { lookup.lists($0.name, bundle) }) { continue }
                for (name, scale) in candidates {
                    if let file = Self.file(named: name, inside: root, resolved: folder) { return (file, scale) }
                }
            }
        }
        throw TesseraError(.invalidInput, origin: .client,
                           reason: "no \(folder == "bitmaps" ? "ready bitmap" : "variant") of '\(asset)' for \(access.device) in the bundles of tags \(tags.sorted().joined(separator: ", "))")
    }
}

/// What finding an asset's file needs from an access, made once per access: looking up each of
/// 5,000 assets searched the manifest's list and resolved every bundle folder's links again, about
/// 2 ms an asset (`Benchmarks/updates.sh`, `client-demo` listing every asset after an update).
final class AccessLookup: Sendable {
    /// Each name's first asset in the manifest (the one a search from the start finds).
    private let assets: [String: Int]
    /// Each bundle's folder, links resolved.
    let roots: [ContentHash: String]
    /// Each bundle's entries as its manifest record lists them.
    private let entries: [ContentHash: Set<String>]

    init(_ access: Access) {
        var assets: [String: Int] = [:]
        for (index, asset) in access.manifest.assets.enumerated() where assets[asset.name.name] == nil { assets[asset.name.name] = index }
        self.assets = assets
        roots = access.folders.mapValues(ResourceRequest.resolved)
        entries = Dictionary(access.bundles.map { ($0.sha256, Set($0.entries)) }, uniquingKeysWith: { first, _ in first })
    }

    func asset(named name: String, in manifest: Manifest) -> AssetEntry? {
        assets[name].map { manifest.assets[$0] }
    }

    /// Whether `bundle`'s record lists the entry `name`.
    func lists(_ name: String, _ bundle: BundleEntry) -> Bool {
        entries[bundle.sha256]?.contains(name) ?? false
    }

    /// An access's lookup, made on its first use (beginning an access, an update's time, pays nothing for it).
    final class Lazy: Sendable {
        private let made = Mutex<AccessLookup?>(nil)

        func value(_ access: Access) -> AccessLookup {
            made.withLock { made in
                if let made { return made }
                let lookup = AccessLookup(access)
                made = lookup
                return lookup
            }
        }
    }
}
