import TesseraCore

/// Every cached result of one build, so that a fresh checkout of the same sources fetches them in
/// a few requests instead of one or two per job.
///
/// The Bazel HTTP protocol has no batch call: a warm build of thousands of small variants spent
/// its time on thousands of round trips. A writer that finishes a complete build therefore also
/// stores, under `ac/<pack key>` (the key of the whole set of job keys), every job's entry, and
/// packs the small blobs those entries name into *segments*: CAS blobs that are the blobs'
/// bytes one after another. Larger blobs stay on their own, as every entry already has them.
///
/// A reader missing entries looks the pack up once; on a hit it has every entry and downloads the
/// segments holding blobs it lacks, each checked against its SHA-256 and each blob in it against
/// its own. Anything absent or damaged falls back to the per-job requests.
struct ResultPack: Codable, Equatable {
    /// One job's entry, as the per-job `ac/<key>` holds it (without inline bytes).
    struct Result: Codable, Equatable {
        var key: ContentHash
        var entry: ActionEntry
    }

    /// A blob inside a segment, at the offset the sizes of the blobs before it add up to.
    struct Blob: Codable, Equatable {
        var sha256: ContentHash
        var size: Int
    }

    /// A CAS blob made of smaller blobs end to end.
    struct Segment: Codable, Equatable {
        var sha256: ContentHash
        var size: Int
        var blobs: [Blob]
    }

    var format = Self.currentFormat
    var results: [Result]
    var segments: [Segment]

    static let currentFormat = 1
    /// Blobs up to this size travel in segments; larger ones are fetched on their own (a request
    /// is cheap beside their bytes, and packing them would store them twice on the server).
    static let segmentBlobLimit = 1 << 20
    /// The size a segment aims at: large enough that requests are few, small enough that a build
    /// changing one asset uploads little again (see `layout`).
    static let segmentTarget = 8 << 20
    /// The largest pack record stored (about 40,000 jobs): a reader holds and decodes it whole,
    /// so builds beyond it keep to per-job requests (or are split with `--shard`, each shard
    /// storing its own pack).
    static let recordLimit = 64 << 20

    /// The key a pack is stored under: the job keys of the build, as a set.
    static func key(for keys: [ContentHash]) -> ContentHash {
        var hasher = StableHasher()
        hasher.combine("tessera.pack.v\(currentFormat)")
        let unique = Set(keys).sorted()
        hasher.combine(unique.count)
        for key in unique { hasher.combine(key) }
        return hasher.finalize()
    }

    /// The small blobs grouped into segments, each in SHA-256 order. The segment a blob lands in
    /// is read from the leading bits of its SHA-256 (as many segments as a power of two of
    /// `segmentTarget` needs), not from where it falls in a running total, so a build that changes
    /// one blob changes two segments, not every segment after it.
    static func layout(_ blobs: [Blob]) -> [[Blob]] {
        var seen = Set<ContentHash>()
        let small = blobs.filter { $0.size <= segmentBlobLimit && seen.insert($0.sha256).inserted }
            .sorted { $0.sha256 < $1.sha256 }
        let total = small.reduce(0) { $0 + $1.size }
        guard total > 0 else { return [] }
        var bits = 0
        while bits < 16, total > segmentTarget << bits { bits += 1 }
        var groups = [[Blob]](repeating: [], count: 1 << bits)
        for blob in small {
            let lead = blob.sha256.bytes.prefix(2).reduce(0) { $0 << 8 | Int($1) }
            groups[lead >> (16 - bits)].append(blob)
        }
        return groups.filter { !$0.isEmpty }
    }

    /// Without indentation: a pack of thousands of entries is read by machines only.
    func serialised() throws(TesseraError) -> [UInt8] {
        CheckedRecord.frame(body: try compactJSON())
    }

    /// Nil when the bytes are not a complete, undamaged pack of this format.
    static func parse(_ bytes: [UInt8]) -> ResultPack? {
        guard let pack = CheckedRecord.open(bytes, as: ResultPack.self, scan: ResultPack.scan), pack.format == currentFormat else { return nil }
        return pack
    }
}
