import TesseraCore

/// Which installed bundles a newer manifest replaces, and the entries a device holds to build
/// their successors from (`docs/updates.md`): what `TesseraClient` updates and what the size
/// report's update cost counts, found one way for both.
///
/// A bundle is replaced when the new manifest lists its pack and device with another SHA-256.
/// Packs the new manifest adds are not part of an update (a device fetches them when it first
/// needs them); packs it drops are not replaced.
public struct BundleReplacements: Sendable, Equatable {
    /// The installed bundles of the held manifest that the new one replaces.
    public var superseded: [ContentHash]
    /// Their successors a device lacks, each once, in the held manifest's order.
    public var wanted: [BundleEntry]

    /// `installed`: the bundles of `held` the device has.
    public init(from held: Manifest, to next: Manifest, installed: Set<ContentHash>) {
        var superseded: [ContentHash] = []
        var wanted: [BundleEntry] = []
        for old in held.bundles where installed.contains(old.sha256) {
            guard let new = next.bundles.first(where: { $0.pack == old.pack && $0.device == old.device }),
                  new.sha256 != old.sha256 else { continue }
            superseded.append(old.sha256)
            if !installed.contains(new.sha256), !wanted.contains(where: { $0.sha256 == new.sha256 }) { wanted.append(new) }
        }
        self.superseded = superseded
        self.wanted = wanted
    }

    /// An entry a device holds: which installed bundle has it, under which name.
    public struct HeldEntry: Sendable, Equatable {
        public var bundle: ContentHash
        public var entry: String
    }

    /// The entries of the bundles installed from `held`, by SHA-256 (the first bundle holding
    /// each): what a device reuses instead of fetching. Entries of a name no bundle may hold are
    /// left out, as the client would not read them.
    public static func heldEntries(of held: Manifest, installed: Set<ContentHash>) -> [ContentHash: HeldEntry] {
        let files = BundleEntryFiles(held)
        var found: [ContentHash: HeldEntry] = [:]
        for bundle in held.bundles where installed.contains(bundle.sha256) {
            for entry in bundle.entries {
                guard let file = files[entry: entry], BundleEntryName.problem(with: entry) == nil,
                      found[file.sha256] == nil else { continue }
                found[file.sha256] = HeldEntry(bundle: bundle.sha256, entry: entry)
            }
        }
        return found
    }
}
