import Foundation
import TesseraCore

/// One job's cached result: the files it wrote (path under the output folder, SHA-256, size) and
/// its metadata. Stored locally under `ac/` and remotely at `{base}/ac/<key>`, as a line with the
/// SHA-256 of the JSON that follows it, so a damaged entry is recognised before it is believed.
public struct ActionEntry: Sendable, Codable, Equatable {
    public struct Output: Sendable, Codable, Equatable {
        public var path: String
        public var sha256: ContentHash
        public var size: Int
    }

    public var format: Int
    public var stage: String
    public var outputs: [Output]
    /// The job's result, in its stage's own encoding (base64 in the JSON).
    public var metadata: Data

    static let currentFormat = 1

    init(stage: String, outputs: [Output], metadata: [UInt8]) {
        self.format = Self.currentFormat
        self.stage = stage
        self.outputs = outputs
        self.metadata = Data(metadata)
    }

    /// The bytes stored: `<sha256 hex of body>\n<body>`.
    func serialised() throws(TesseraError) -> [UInt8] {
        let body = try StableJSON.encode(self)
        return Array((ContentHash.of(body).hex + "\n").utf8) + body
    }

    /// Nil when the bytes are not a complete, undamaged entry of this format.
    static func parse(_ bytes: [UInt8]) -> ActionEntry? {
        guard bytes.count > 65, bytes[64] == UInt8(ascii: "\n"),
              let expected = ContentHash(hex: String(decoding: bytes[0..<64], as: UTF8.self)) else { return nil }
        let body = bytes[65...]
        guard ContentHash.of(body) == expected,
              let entry = try? JSONDecoder().decode(ActionEntry.self, from: Data(body)),
              entry.format == currentFormat else { return nil }
        return entry
    }
}
