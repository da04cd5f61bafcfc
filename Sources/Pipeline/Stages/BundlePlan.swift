import Delivery
import Foundation
import JobEngine
import Manifests
import Packing
import Slicing
import TesseraCore

/// One entry a bundle will hold.
struct BundleItem: Sendable, Encodable {
    let name: String
    let kind: BundleRecord.Kind
    let traits: String
    let file: PlannedFile
    /// The job whose file this one goes with (a preserved vector or a ready bitmap goes with its
    /// variant): when that failed, this is left out too, as the manifest leaves the asset out.
    var accompanies: Prerequisite? = nil

    /// Whether its file was made, and the file it goes with, if any.
    func wasMade(in context: JobContext) -> Bool {
        file.producer.succeeded(in: context) && (accompanies?.succeeded(in: context) ?? true)
    }
}

/// One pack's contents for one device class.
struct BundlePlan: Sendable {
    let pack: String
    let device: String
    /// Sorted by name, names unique.
    let items: [BundleItem]
    /// What the bundle holds, as a hash: equal for device classes that select the same files, so
    /// they share one bundle file.
    let contentKey: ContentHash

    init(pack: String, device: String, items: [BundleItem]) {
        self.pack = pack
        self.device = device
        self.items = items
        contentKey = Self.contentKey(pack: pack, items: items)
    }

    private static func contentKey(pack: String, items: [BundleItem]) -> ContentHash {
        var hasher = StableHasher()
        hasher.combine(pack)
        hasher.combine(items.count)
        for item in items {
            hasher.combine(item.name)
            hasher.combine(Int(item.kind.rawValue))
            hasher.combine(item.traits)
            hasher.combine(item.file.path)
        }
        return hasher.finalize()
    }

    /// Sorted by name; when two items claim one name, the first in that order stays.
    static func unique(_ items: [BundleItem]) -> [BundleItem] {
        var names: Set<String> = []
        return items.sorted { ($0.name, $0.file.path) < ($1.name, $1.file.path) }.filter { names.insert($0.name).inserted }
    }
}

/// What decides whether a payload may be compressed: it is asked once per file and kind.
struct CompressionChoice: Hashable {
    let path: String
    let kind: BundleRecord.Kind
}

struct BundleKey: Hashable, Comparable {
    let pack: String
    let device: String
    static func < (lhs: BundleKey, rhs: BundleKey) -> Bool { (lhs.pack, lhs.device) < (rhs.pack, rhs.device) }
}

