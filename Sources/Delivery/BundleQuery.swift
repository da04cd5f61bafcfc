import TesseraCore

/// Answers "device D wants tags T: which bundles, in what order, how big, with what hash?" from a manifest.
///
/// Order: the initial-install packs (they come with the app), then prefetch packs by descending
/// priority (the pipeline's prefetch order), then the packs holding any requested tag; a pack is
/// left out when any of its tags is already installed (it came with that tag's download). Ties
/// are broken by pack ID.
public enum BundleQuery {
    public struct Answer: Sendable, Codable, Equatable {
        public struct Item: Sendable, Codable, Equatable {
            public var pack: String
            public var tags: [String]
            public var category: PackCategory
            public var priority: Double?
            public var url: String
            public var bytes: Int
            public var sha256: ContentHash
        }

        public var device: String
        public var bundles: [Item]
        public var totalBytes: Int
        /// Set when `device` stands in for the device asked about (the nearest built class).
        public var note: String?
    }

    public static func answer(_ manifest: Manifest, device: String, tags: [String],
                              installed: [String] = []) throws(TesseraError) -> Answer {
        let devices = manifest.deviceClasses.map(\.id)
        guard devices.contains(device) else {
            throw TesseraError(.configuration, origin: .query,
                               reason: "no bundles for device '\(device)'; known: \(EditDistance.closest(to: device, in: devices).joined(separator: ", "))")
        }
        let knownTags = Set(manifest.packs.flatMap(\.tags))
        for tag in tags + installed where !knownTags.contains(tag) {
            throw TesseraError(.configuration, origin: .query,
                               reason: "unknown tag '\(tag)'; known: \(EditDistance.closest(to: tag, in: Array(knownTags)).joined(separator: ", "))")
        }
        let requested = Set(tags), done = Set(installed)
        func rank(_ pack: PackEntry) -> (Int, Double)? {
            if !Set(pack.tags).isDisjoint(with: done) { return nil }
            switch pack.category {
            case .initialInstall: return (0, 0)
            case .prefetch: return (1, -(pack.priority ?? 0))
            case .onDemand: return Set(pack.tags).isDisjoint(with: requested) ? nil : (2, 0)
            }
        }
        let chosen = manifest.packs.compactMap { pack in rank(pack).map { (pack, $0) } }
            .sorted { ($0.1.0, $0.1.1, $0.0.id) < ($1.1.0, $1.1.1, $1.0.id) }
        var items: [Answer.Item] = []
        for (pack, _) in chosen {
            guard let bundle = manifest.bundles.first(where: { $0.pack == pack.id && $0.device == device }) else { continue }
            items.append(Answer.Item(pack: pack.id, tags: pack.tags, category: pack.category, priority: pack.priority,
                                     url: bundle.url, bytes: bundle.bytes, sha256: bundle.sha256))
        }
        return Answer(device: device, bundles: items, totalBytes: items.reduce(0) { $0 + $1.bytes })
    }
}
