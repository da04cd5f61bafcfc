import Delivery
import TesseraCore

/// What updating from the previous build (`--against`) costs each device class that holds every
/// pack of it (`docs/size-report.md`): by delta, as `TesseraClient` updates (the manifest's patch
/// or its compressed form, then each replaced bundle's missing objects, or the bundle whole, by
/// `BundleUpdatePlan`'s rule), against fetching every replaced bundle whole with the full
/// manifest, as before objects and patches. Bodies only: request and answer heads are not counted.
public struct UpdateCosts: Sendable, Codable, Equatable {
    /// How a device gets the new manifest.
    public enum ManifestWay: String, Sendable, Codable {
        /// The same manifest: nothing to fetch but the update index.
        case unchanged
        /// A patch from the previous build's manifest (`updates.json` lists it).
        case patch
        /// `manifest.json.xz`: the build has an update index but no patch from the previous manifest.
        case compressed
        /// `manifest.json` itself: the build has no update index (or it is not at hand).
        case whole
    }

    /// One device class's update.
    public struct DeviceUpdate: Sendable, Codable, Equatable {
        public var device: String
        /// The manifest's way plus the bundles' ways: what the device downloads.
        public var deltaBytes: Int
        /// Every replaced bundle whole, plus the full manifest.
        public var wholeBytes: Int
        /// The device's bundles the new build replaces.
        public var bundles: Int
        /// Of those, how many are fetched whole by the rule (their missing objects reach the share).
        public var wholeBundles: Int
        /// Objects fetched, and their transfer bytes.
        public var objects: Int
        public var objectBytes: Int

        public init(device: String, deltaBytes: Int, wholeBytes: Int, bundles: Int, wholeBundles: Int, objects: Int, objectBytes: Int) {
            self.device = device
            self.deltaBytes = deltaBytes
            self.wholeBytes = wholeBytes
            self.bundles = bundles
            self.wholeBundles = wholeBundles
            self.objects = objects
            self.objectBytes = objectBytes
        }
    }

    public var manifestWay: ManifestWay
    /// What the manifest costs by `manifestWay`.
    public var manifestBytes: Int
    /// `manifest.json`'s size: what the whole-bundle path counts.
    public var fullManifestBytes: Int
    public var devices: [DeviceUpdate]

    /// The build of `current` (whose exact bytes are `currentReference`, with the update index
    /// `index` written beside it, if any) as an update from `previous` (whose exact bytes are
    /// `previousReference`, when known: the patch is found by it). `share`: the client's
    /// `wholeBundleShare`.
    public static func make(current: Manifest, currentReference: ManifestReference, index: UpdateIndex?,
                            previous: Manifest, previousReference: ManifestReference?,
                            share: Double = BundleUpdatePlan.defaultWholeBundleShare) -> UpdateCosts {
        let way: ManifestWay
        let manifestBytes: Int
        if previousReference == currentReference {
            (way, manifestBytes) = (.unchanged, 0)
        } else if let index, index.manifest == currentReference, let previousReference, let patch = index.patch(from: previousReference) {
            (way, manifestBytes) = (.patch, patch.bytes)
        } else if let index, index.manifest == currentReference {
            (way, manifestBytes) = (.compressed, index.compressedBytes)
        } else {
            (way, manifestBytes) = (.whole, currentReference.bytes)
        }
        let objects = BundleEntryObjects(current)
        var devices: [DeviceUpdate] = []
        for device in current.deviceClasses {
            // The device holds every pack of the previous build it had a bundle of.
            let installed = Set(previous.bundles.filter { $0.device == device.id }.map(\.sha256))
            let held = BundleReplacements.heldEntries(of: previous, installed: installed)
            let replaced = BundleReplacements(from: previous, to: current, installed: installed).wanted
            var update = DeviceUpdate(device: device.id, deltaBytes: manifestBytes, wholeBytes: currentReference.bytes,
                                      bundles: replaced.count, wholeBundles: 0, objects: 0, objectBytes: 0)
            var fetched = Set<ContentHash>()
            for bundle in replaced {
                update.wholeBytes += bundle.bytes
                switch BundleUpdatePlan.way(for: bundle, objects: objects, held: { held[$0] != nil }, share: share) {
                case .whole(let bundle):
                    update.wholeBundles += 1
                    update.deltaBytes += bundle.bytes
                case .objects(let plan):
                    // Two bundles needing one object fetch it once, as the client does.
                    for object in plan.missing where fetched.insert(object.sha256).inserted {
                        update.objects += 1
                        update.objectBytes += object.transferBytes
                        update.deltaBytes += object.transferBytes
                    }
                }
            }
            devices.append(update)
        }
        return UpdateCosts(manifestWay: way, manifestBytes: manifestBytes, fullManifestBytes: currentReference.bytes, devices: devices)
    }
}

extension UpdateCosts {
    /// The update from `previous` to `current`; nil when `current`'s manifest bytes were not
    /// read (its size and the patch's target are unknown).
    public static func make(current: ReportedBuild, previous: ReportedBuild) -> UpdateCosts? {
        guard let reference = current.reference else { return nil }
        return make(current: current.manifest, currentReference: reference, index: current.updateIndex,
                    previous: previous.manifest, previousReference: previous.reference)
    }
}
