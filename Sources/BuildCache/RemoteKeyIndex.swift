import TesseraCore

/// Which job keys the remote cache holds entries for, as Tessera's writers reported them: one
/// record under `ac/<index key>` listing the first eight bytes of each key, newest first.
///
/// A run reads it once and asks the server only for the keys it lists. A build against a cold
/// cache (a branch's first CI run, a cache just emptied) then sends no per-job request at all,
/// where it sent one per job before its first job could start (1,807 answered 404 for 600
/// masters), each a round trip for both ends.
///
/// It is a hint, never trusted for content: a listed key still needs its checked entry, and a
/// key missing from the list only means the job runs and stores its entry again. That happens
/// when two writers race (the last one's list wins) or when a tool other than Tessera wrote the
/// entry; the next writer lists it again.
struct RemoteKeyIndex: Equatable {
    /// Key prefixes, newest first.
    private(set) var prefixes: [UInt64]
    private let lookup: Set<UInt64>

    init(prefixes: [UInt64] = []) {
        self.prefixes = prefixes
        lookup = Set(prefixes)
    }

    /// Where the index is stored, the same for every Tessera writing to the cache.
    static let key: ContentHash = {
        var hasher = StableHasher()
        hasher.combine("tessera.remote-key-index.v1")
        return hasher.finalize()
    }()

    /// Keys listed at most (2 MiB of prefixes): the oldest go first.
    static let limit = 262_144

    static func prefix(_ key: ContentHash) -> UInt64 {
        key.bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Whether the server may hold an entry under `key` (a prefix collision only costs a request).
    func mayHold(_ key: ContentHash) -> Bool {
        lookup.contains(Self.prefix(key))
    }

    /// This index with `keys` listed first (in key order, so the bytes are the same whatever the
    /// order the run stored them in), then the keys it listed, up to `limit`.
    func listing(_ keys: some Sequence<ContentHash>) -> RemoteKeyIndex {
        var seen = Set<UInt64>()
        var merged: [UInt64] = []
        for prefix in keys.map(Self.prefix).sorted() + prefixes where merged.count < Self.limit && seen.insert(prefix).inserted {
            merged.append(prefix)
        }
        return RemoteKeyIndex(prefixes: merged)
    }

    /// The record stored: a format line, then the prefixes big-endian, framed with its SHA-256.
    func serialised() -> [UInt8] {
        var body = Array(Self.magic)
        body.reserveCapacity(body.count + prefixes.count * 8)
        for prefix in prefixes { withUnsafeBytes(of: prefix.bigEndian) { body.append(contentsOf: $0) } }
        return CheckedRecord.frame(body: body)
    }

    /// Nil when the bytes are not an undamaged index of this format.
    static func parse(_ bytes: [UInt8]) -> RemoteKeyIndex? {
        guard let body = CheckedRecord.body(of: bytes), body.starts(with: magic),
              (body.count - magic.count) % 8 == 0 else { return nil }
        let values = body.dropFirst(magic.count)
        var prefixes: [UInt64] = []
        prefixes.reserveCapacity(values.count / 8)
        var index = values.startIndex
        while index < values.endIndex {
            prefixes.append(values[index..<index + 8].reduce(0) { $0 << 8 | UInt64($1) })
            index += 8
        }
        return RemoteKeyIndex(prefixes: prefixes)
    }

    private static let magic = Array("tessera remote key index 1\n".utf8)
}
