import TesseraCore

/// How a device that holds some entries already gets one bundle of the next build
/// (`docs/updates.md`): the objects it lacks (`objects/<sha256>`, each once), or the whole `.tsb`
/// when those objects and their requests reach a share of it.
///
/// One decision, asked in two places that must agree: `TesseraClient` makes it when it updates,
/// and the size report (`tessera report --against`) when it says what that update costs and
/// `max-update` judges it. Both import it from here, so a report cannot promise a cost the client
/// does not pay.
public struct BundleUpdatePlan: Sendable, Equatable {
    /// One bundle entry and where its contents come from.
    public struct Part: Sendable, Equatable {
        /// The entry's name in the bundle (its path in the unpacked folder).
        public var entry: String
        public var object: TransferObject
        /// Whether the device holds these contents already (same SHA-256).
        public var held: Bool
    }

    /// What updating a bundle costs, by the rule: its objects, or the bundle whole.
    public enum Way: Sendable, Equatable {
        case objects(BundleUpdatePlan)
        case whole(BundleEntry)

        /// The bodies a device downloads this way (no request or answer heads).
        public var bytes: Int {
            switch self {
            case .objects(let plan): plan.missingBytes
            case .whole(let bundle): bundle.bytes
            }
        }

        /// Requests this way takes: one per object, or one for the bundle.
        public var requests: Int {
            switch self {
            case .objects(let plan): plan.missing.count
            case .whole: 1
            }
        }
    }

    /// What one object request costs beyond its body (request and answer heads, about 400 bytes
    /// on nginx): what makes many small objects dearer than their sizes say.
    public static let requestOverhead = 512

    /// The share of a bundle past which it is fetched whole (`ClientConfiguration.wholeBundleShare`'s
    /// default). `docs/updates.md` says why 0.7: either way then costs at most about 1.43× the other.
    public static let defaultWholeBundleShare = 0.7

    public let bundle: BundleEntry
    /// Every entry, in the bundle's order.
    public let parts: [Part]
    /// The objects to fetch, each once, by SHA-256.
    public let missing: [TransferObject]

    /// nil when the bundle cannot be made from objects: an entry the manifest lists no object
    /// for (a manifest of minor version 0), or names no bundle may hold.
    /// `held`: the SHA-256s of the entries the device has (`HeldEntries`).
    public init?(bundle: BundleEntry, objects: BundleEntryObjects, held: (ContentHash) -> Bool) {
        guard !bundle.entries.contains(where: { BundleEntryName.problem(with: $0) != nil }),
              BundleEntryName.conflict(in: bundle.entries) == nil else { return nil }
        var parts: [Part] = []
        var missing: [ContentHash: TransferObject] = [:]
        for entry in bundle.entries {
            guard let object = objects[entry: entry] else { return nil }
            let isHeld = held(object.sha256)
            parts.append(Part(entry: entry, object: object, held: isHeld))
            if !isHeld { missing[object.sha256] = object }
        }
        self.bundle = bundle
        self.parts = parts
        self.missing = missing.values.sorted { $0.sha256 < $1.sha256 }
    }

    /// Bytes the objects to fetch take on the wire.
    public var missingBytes: Int { missing.reduce(0) { $0 + $1.transferBytes } }

    /// Whether fetching the objects is the cheaper way: their bytes and requests stay below
    /// `share` of the whole `.tsb` (past it, one resumable request for the bundle saves the
    /// per-object requests for little more on the wire).
    public func isWorthIt(share: Double) -> Bool {
        Double(missingBytes + missing.count * Self.requestOverhead) < share * Double(bundle.bytes)
    }

    /// The way the rule picks for `bundle`: its objects when they can make it and are worth it,
    /// the bundle whole otherwise.
    public static func way(for bundle: BundleEntry, objects: BundleEntryObjects, held: (ContentHash) -> Bool,
                           share: Double = defaultWholeBundleShare) -> Way {
        guard let plan = BundleUpdatePlan(bundle: bundle, objects: objects, held: held), plan.isWorthIt(share: share) else {
            return .whole(bundle)
        }
        return .objects(plan)
    }
}
