import Delivery
import TesseraCore

/// A pack: every asset sharing one exact set of tags, as On-Demand Resources groups them.
public struct Pack: Sendable, Hashable, Codable {
    /// Stable: `base` for the untagged pack, else `pack-` and the first 16 hex digits of SHA-256
    /// over the sorted tags joined by newlines.
    public var id: String
    public var tags: [String]
    public var category: PackCategory
    /// Download priority, 0–1: initial-install 1.0; prefetch by position; on-demand none.
    public var priority: Double?
}

/// Groups assets into packs by tag set and gives each its category and priority.
///
/// One pack per distinct set of tags (an asset tagged `{a, b}` goes in the `{a, b}` pack, not in
/// both `a` and `b`); untagged assets go in the base (initial-install) pack. A tag's priority:
/// 1.0 when it is an initial-install tag; prefetch tag i of n gets 0.05 + 0.9 × (n − 1 − i)/(n − 1)
/// (0.5 when n = 1); a pack takes the highest of its tags' priorities; packs with only on-demand
/// tags have none. A pack is as eager as its most eager tag, as Apple's categories mean: its
/// resources are all tagged with each of its tags, so a resource with an initial-install tag must
/// be on the device at install whatever else tags it — the pack is initial-install when any tag
/// is, else prefetch when any tag is in the prefetch order, else on-demand.
public struct PackPlanner: Sendable {
    public var initialInstallTags: Set<String>
    public var prefetchOrder: [String]

    public init(initialInstallTags: [String] = [], prefetchOrder: [String] = []) {
        self.initialInstallTags = Set(initialInstallTags)
        self.prefetchOrder = prefetchOrder
    }

    public static func packID(for tags: [String]) -> String {
        guard !tags.isEmpty else { return "base" }
        return "pack-" + String(ContentHash.of(Array(tags.sorted().joined(separator: "\n").utf8)).hex.prefix(16))
    }

    public func tagPriority(_ tag: String) -> Double? {
        if initialInstallTags.contains(tag) { return 1.0 }
        guard let position = prefetchOrder.firstIndex(of: tag) else { return nil }
        let count = prefetchOrder.count
        if count == 1 { return 0.5 }
        // Rounded to 9 decimals, so manifests say 0.95 rather than 0.9500000000000001.
        return ((0.05 + 0.9 * Double(count - 1 - position) / Double(count - 1)) * 1e9).rounded() / 1e9
    }

    public func pack(for tags: [String]) -> Pack {
        let sorted = Array(Set(tags)).sorted()
        if sorted.isEmpty || sorted.contains(where: initialInstallTags.contains) {
            return Pack(id: Self.packID(for: sorted), tags: sorted, category: .initialInstall, priority: 1.0)
        }
        let priorities = sorted.compactMap(tagPriority)
        let category: PackCategory = sorted.contains(where: prefetchOrder.contains) ? .prefetch : .onDemand
        return Pack(id: Self.packID(for: sorted), tags: sorted, category: category,
                    priority: category == .onDemand ? nil : priorities.max())
    }
}
