import TesseraCore

/// Where the remote cache holds each job's entry, as Tessera's writers reported it: one record
/// under `ac/<index key>` listing the first eight bytes of each key, newest first, each with its
/// place: the job's own entry (`ac/<key>`), or a result pack (`ac/<pack key>`) that holds it.
///
/// A run reads it once. It asks the server only for the entries it lists as the jobs' own, and
/// takes the others from the packs that hold them (a checkout that changed a few sources finds
/// the rest in the pack of the build before). A build against a cold cache then sends no per-job
/// request at all, and a complete build need not upload an entry per job: its pack is listed
/// instead (issue 28: 1,956 PUTs for 600 masters became a few dozen).
///
/// It is a hint, never trusted for content: a listed key still needs its checked entry, and a
/// key missing from the list only means the job runs and stores its entry again. That happens
/// when two writers race (the last one's list wins) or when a tool other than Tessera wrote the
/// entry; the next writer lists it again.
struct RemoteKeyIndex: Equatable {
    /// Where a listed key's entry is.
    enum Location: Equatable {
        /// `ac/<key>`.
        case entry
        /// Inside the result pack `ac/<pack key>`.
        case pack(ContentHash)
    }

    /// Key prefixes, newest first, with their places.
    private(set) var listed: [(prefix: UInt64, location: Location)]
    private let lookup: [UInt64: Location]

    init(listed: [(prefix: UInt64, location: Location)] = []) {
        self.listed = listed
        var lookup: [UInt64: Location] = [:]
        for item in listed where lookup[item.prefix] == nil { lookup[item.prefix] = item.location }
        self.lookup = lookup
    }

    static func == (lhs: RemoteKeyIndex, rhs: RemoteKeyIndex) -> Bool {
        lhs.listed.count == rhs.listed.count
            && zip(lhs.listed, rhs.listed).allSatisfy { $0.prefix == $1.prefix && $0.location == $1.location }
    }

    var prefixes: [UInt64] { listed.map(\.prefix) }

    /// Where the index is stored, the same for every Tessera writing to the cache.
    static let key: ContentHash = {
        var hasher = StableHasher()
        hasher.combine("tessera.remote-key-index.v2")
        return hasher.finalize()
    }()

    /// Keys listed at most (3 MiB of prefixes and places): the oldest go first.
    static let limit = 262_144

    static func prefix(_ key: ContentHash) -> UInt64 {
        key.bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Where the server may hold `key`'s entry; nil when it is not listed (a prefix collision
    /// only costs a request).
    func location(of key: ContentHash) -> Location? {
        lookup[Self.prefix(key)]
    }

    /// Whether any key is listed as its own entry: the lookups will ask the server.
    var listsEntries: Bool { listed.contains { $0.location == .entry } }

    /// This index with `keys` listed first, at `location` (in key order, so the bytes are the
    /// same whatever the order the run stored them in), then the keys it listed, up to `limit`.
    func listing(_ keys: some Sequence<ContentHash>, at location: Location = .entry) -> RemoteKeyIndex {
        var seen = Set<UInt64>()
        var merged: [(prefix: UInt64, location: Location)] = []
        let fresh = keys.map(Self.prefix).sorted().map { (prefix: $0, location: location) }
        for item in fresh + listed where merged.count < Self.limit && seen.insert(item.prefix).inserted {
            merged.append(item)
        }
        return RemoteKeyIndex(listed: merged)
    }

    /// The record stored: a format line, the packs named (32 bytes each, after their count), then
    /// each prefix big-endian with its place (0: its own entry; n: the n-th pack), framed with
    /// its SHA-256.
    func serialised() -> [UInt8] {
        var packs: [ContentHash] = []
        var numbers: [ContentHash: UInt32] = [:]
        for item in listed {
            if case .pack(let key) = item.location, numbers[key] == nil {
                packs.append(key)
                numbers[key] = UInt32(packs.count)
            }
        }
        var body = Array(Self.magic)
        body.reserveCapacity(body.count + 4 + packs.count * 32 + listed.count * 12)
        Self.append(UInt32(packs.count), to: &body)
        for pack in packs { body.append(contentsOf: pack.bytes) }
        for item in listed {
            withUnsafeBytes(of: item.prefix.bigEndian) { body.append(contentsOf: $0) }
            if case .pack(let key) = item.location { Self.append(numbers[key]!, to: &body) } else { Self.append(0, to: &body) }
        }
        return CheckedRecord.frame(body: body)
    }

    /// Nil when the bytes are not an undamaged index of this format.
    static func parse(_ bytes: [UInt8]) -> RemoteKeyIndex? {
        guard let body = CheckedRecord.body(of: bytes), body.starts(with: magic) else { return nil }
        var reader = body.dropFirst(magic.count)
        guard let count = read(&reader, bytes: 4).map({ Int(number($0)) }), count <= reader.count / 32 else { return nil }
        var packs: [ContentHash] = []
        for _ in 0..<count {
            guard let bytes = read(&reader, bytes: 32) else { return nil }
            packs.append(ContentHash(bytes: Array(bytes)))
        }
        guard reader.count % 12 == 0 else { return nil }
        var listed: [(prefix: UInt64, location: Location)] = []
        listed.reserveCapacity(reader.count / 12)
        while !reader.isEmpty {
            let prefix = number(read(&reader, bytes: 8)!)
            let place = Int(number(read(&reader, bytes: 4)!))
            guard place <= packs.count else { return nil }
            listed.append((prefix, place == 0 ? .entry : .pack(packs[place - 1])))
        }
        return RemoteKeyIndex(listed: listed)
    }

    private static func append(_ value: UInt32, to body: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { body.append(contentsOf: $0) }
    }

    private static func read(_ reader: inout ArraySlice<UInt8>, bytes count: Int) -> ArraySlice<UInt8>? {
        guard reader.count >= count else { return nil }
        defer { reader = reader.dropFirst(count) }
        return reader.prefix(count)
    }

    private static func number(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static let magic = Array("tessera remote key index 2\n".utf8)
}
