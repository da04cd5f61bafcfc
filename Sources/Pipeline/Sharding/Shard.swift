import TesseraCore

/// One of N parts of a build (`--shard I/N`, 1-based): the work units whose id falls to it.
public struct Shard: Sendable, Hashable, Codable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws(TesseraError) {
        guard count >= 1, (1...count).contains(index) else {
            throw TesseraError(.configuration, reason: "--shard must be I/N with 1 ≤ I ≤ N, not \(index)/\(count)")
        }
        self.index = index
        self.count = count
    }

    /// Parses `I/N`.
    public init(parsing text: String) throws(TesseraError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw TesseraError(.configuration, reason: "--shard must be I/N (like 2/4), not '\(text)'")
        }
        try self.init(index: index, count: count)
    }

    /// Whether the unit with this id belongs to this shard: its id's first eight bytes modulo N,
    /// so every shard decides alike without talking to the others.
    public func owns(_ unit: ContentHash) -> Bool {
        Self.shardIndex(of: unit, count: count) == index
    }

    static func shardIndex(of unit: ContentHash, count: Int) -> Int {
        let prefix = unit.bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(prefix % UInt64(count)) + 1
    }

    public var description: String { "\(index)/\(count)" }
}
