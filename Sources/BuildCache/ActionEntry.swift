import Foundation
import TesseraCore

/// One job's cached result: the files it wrote (path under the output folder, SHA-256, size) and
/// its metadata, and the key it is stored under. Stored locally under `ac/` and remotely at
/// `{base}/ac/<key>`, framed by `CheckedRecord`.
///
/// The key is in the entry because a store's path is only where someone put it: an entry found
/// under another job's key (an executor's misfiled result, a damaged cache) is a miss, never that
/// job's files (issue 54, item 9).
public struct ActionEntry: Sendable, Codable, Equatable {
    public struct Output: Sendable, Codable, Equatable {
        public var path: String
        public var sha256: ContentHash
        public var size: Int
        /// The file's bytes when a remote entry carried them inline (`RemoteActionRecord`; entries
        /// of an earlier Tessera held them here, base64 in the JSON); nil in local entries.
        public var contents: Data?
    }

    public var format: Int
    /// The cache key it was made under (`JobCaching.cacheKey`).
    public var key: ContentHash
    public var stage: String
    public var outputs: [Output]
    /// The job's result, in its stage's own encoding (base64 in the JSON).
    public var metadata: Data

    static let currentFormat = 1

    init(key: ContentHash, stage: String, outputs: [Output], metadata: [UInt8]) {
        self.format = Self.currentFormat
        self.key = key
        self.stage = stage
        self.outputs = outputs
        self.metadata = Data(metadata)
    }

    /// Inline bytes one entry carries at most.
    static let inlineTotal = 1 << 20

    /// This entry with the bytes of its outputs of at most `limit` bytes inline, read by `bytes`
    /// (nil: not inlined) and checked against their SHA-256 unless `checked` (the caller hashed
    /// those very files moments ago).
    func inlining(upTo limit: Int, checked: Bool = false, _ bytes: (Output) -> [UInt8]?) -> ActionEntry {
        var entry = self
        var total = 0
        for index in entry.outputs.indices where entry.outputs[index].size <= limit {
            let output = entry.outputs[index]
            guard total + output.size <= Self.inlineTotal, let data = bytes(output), data.count == output.size,
                  checked || ContentHash.of(data) == output.sha256 else { continue }
            entry.outputs[index].contents = Data(data)
            total += output.size
        }
        return entry
    }

    /// This entry with the inline bytes a remote entry carried beside it (by SHA-256) given to
    /// the outputs that have none.
    func carrying(_ contents: [ContentHash: [UInt8]]) -> ActionEntry {
        guard !contents.isEmpty else { return self }
        var entry = self
        for index in entry.outputs.indices where entry.outputs[index].contents == nil {
            entry.outputs[index].contents = contents[entry.outputs[index].sha256].map { Data($0) }
        }
        return entry
    }

    /// This entry as stored locally: without inline bytes.
    var withoutContents: ActionEntry {
        var entry = self
        for index in entry.outputs.indices { entry.outputs[index].contents = nil }
        return entry
    }

    /// The bytes stored (`CheckedRecord`'s framing).
    func serialised() throws(TesseraError) -> [UInt8] {
        CheckedRecord.frame(body: try compactJSON())
    }

    /// Nil when the bytes are not a complete, undamaged entry of this format.
    static func parse(_ bytes: [UInt8]) -> ActionEntry? {
        guard let entry = CheckedRecord.open(bytes, as: ActionEntry.self, scan: ActionEntry.scan), entry.format == currentFormat else { return nil }
        return entry
    }
}
