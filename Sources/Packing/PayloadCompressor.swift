import Delivery
import TesseraCore

/// When a bundle pays for xz: the pipeline's `pack: compress:` setting.
public enum CompressionMode: String, Sendable, Codable, CaseIterable {
    /// Already-compressed formats (PNG, JPEG, WebP, GIF, HEIC, PDF, archives) are stored without
    /// trying; anything else is probed on 64 KiB windows at its head, middle and tail at preset 0
    /// and compressed in full only when every window shows it can pay.
    case auto
    /// Every payload but ready bitmaps is compressed in full, and kept when it saves enough.
    case always
    /// Every payload is stored.
    case never
}

/// Decides, once per payload, whether it is stored or xz-compressed, and compresses it.
///
/// The decision depends only on the payload's bytes, its kind and its entry name, so every bundle
/// that holds the same file gets the same record: compress once, reuse everywhere.
public struct PayloadCompressor: Sendable, Codable, Hashable {
    public var mode: CompressionMode
    /// Keep xz only when it saves at least this fraction of the payload.
    public var minimumSaving: Double
    /// liblzma preset for the full pass.
    public var level: UInt32

    /// How much of a payload the cheap probe compresses.
    public static let probeLength = 64 * 1024

    /// The defaults of `pack: min-saving` and `xz-level` (and `tessera bundle create`'s).
    public static let defaultMinimumSaving = 0.05
    public static let defaultLevel: UInt32 = 6

    public init(mode: CompressionMode = .auto, minimumSaving: Double = defaultMinimumSaving,
                level: UInt32 = defaultLevel) {
        self.mode = mode
        self.minimumSaving = minimumSaving
        self.level = level
    }

    /// Whether a payload is worth even a probe, from what it is and its first bytes. Ready bitmaps
    /// are stored so apps can memory-map them; PNG, JPEG, WebP, GIF, HEIC/AVIF, PDF and archives
    /// are already entropy-coded (a PDF's streams are Flate- or DCT-coded), where LZMA gains a few
    /// per cent at the cost of a full pass over the largest payloads a build has (aapt2 and
    /// bundletool keep the same kind of no-compress list); `compress: always` still tries them.
    public func mayCompress(kind: BundleRecord.Kind, name: String, leadingBytes: some Collection<UInt8>) -> Bool {
        guard kind != .readyBitmap, kind != .index else { return false }
        switch mode {
        case .never: return false
        case .always: return true
        case .auto: return !Self.isAlreadyCompressed(name: name, leadingBytes: leadingBytes)
        }
    }

    /// The payload as it should be stored: xz bytes, or nil to store it as it is.
    public func compressIfItPays(_ contents: [UInt8], kind: BundleRecord.Kind, name: String) throws(TesseraError) -> [UInt8]? {
        guard !contents.isEmpty, mayCompress(kind: kind, name: name, leadingBytes: contents.prefix(16)) else { return nil }
        if mode == .auto, contents.count > Self.probeLength {
            // Three windows, not the head alone: a file whose head is text and whose body is
            // already-compressed data (an SVG embedding a PNG) would pass a head-only probe and
            // then cost a full xz pass for nothing.
            for window in Self.probeWindows(count: contents.count) {
                let sample = Array(contents[window])
                guard pays(try XZ.compress(sample, level: 0).count, of: sample.count) else { return nil }
            }
        }
        let compressed = try XZ.compress(contents, level: level)
        return pays(compressed.count, of: contents.count) ? compressed : nil
    }

    /// Where the probe samples a payload of `count` bytes: its head, middle and tail (the whole
    /// payload when it is shorter than three windows).
    public static func probeWindows(count: Int) -> [Range<Int>] {
        let length = probeLength
        guard count > 3 * length else { return [0..<count] }
        let middle = (count - length) / 2
        return [0..<length, middle..<middle + length, count - length..<count]
    }

    private func pays(_ compressed: Int, of original: Int) -> Bool {
        Double(compressed) <= Double(original) * (1 - minimumSaving)
    }

    /// File extensions of formats that are already compressed.
    static let compressedExtensions: Set<String> = [
        "png", "jpg", "jpeg", "webp", "gif", "heic", "heif", "avif", "pdf", "zip", "xz", "gz", "bz2", "zst", "mp3", "m4a",
        "mp4", "mov", "aac", "ogg", "jar", "apk", "aab",
    ]

    /// By extension or by magic bytes (a `.dat` holding a PNG is still a PNG).
    static func isAlreadyCompressed(name: String, leadingBytes: some Collection<UInt8>) -> Bool {
        if let dot = name.lastIndex(of: "."), !name[dot...].contains("/"),
           compressedExtensions.contains(name[name.index(after: dot)...].lowercased()) {
            return true
        }
        let head = Array(leadingBytes.prefix(12))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        return starts([0x89, 0x50, 0x4E, 0x47]) || starts([0xFF, 0xD8, 0xFF]) || starts(Array("GIF8".utf8))
            || (starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8))
            || starts(Array("ftyp".utf8), at: 4) || starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00])
            || starts([0x1F, 0x8B]) || starts([0x50, 0x4B, 0x03, 0x04]) || starts(Array("%PDF-".utf8))
    }
}
