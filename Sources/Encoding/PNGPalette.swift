/// Whether PNGs are reduced to at most 256 colours (an indexed PNG with PLTE and tRNS) before
/// they are compressed: lossy, off by default, for teams who want smaller apps.
///
/// `lossy` quantises with libimagequant at a fixed speed and dithering on one thread, so the same
/// pixels and options always give the same bytes. When libimagequant cannot reach the quality
/// floor the PNG is written truecolour, exactly as with `off`, and the encode says so. Only a
/// Tessera built with the `LossyPalette` trait has libimagequant (`isAvailable`): it is GPL-3.0.
public struct PNGPalette: Sendable, Codable, Hashable {
    public enum Mode: String, CaseIterable, Codable, Sendable {
        case off
        case lossy
    }

    public var mode: Mode
    /// libimagequant's quality scale, 0–100 (like JPEG's): below the lower bound the palette is
    /// refused, and no more colours are spent once the upper one is reached.
    public var quality: ClosedRange<Int>
    /// libimagequant's speed, 1 (slowest, best) to 10; 4 is its own default.
    public var speed: Int

    public static let off = PNGPalette()
    public static let defaultQuality = 65...90
    public static let defaultSpeed = 4
    public static let speeds = 1...10

    public init(mode: Mode = .off, quality: ClosedRange<Int> = PNGPalette.defaultQuality,
                speed: Int = PNGPalette.defaultSpeed) {
        self.mode = mode
        self.quality = max(0, quality.lowerBound)...min(100, quality.upperBound)
        self.speed = min(Self.speeds.upperBound, max(Self.speeds.lowerBound, speed))
    }

    /// Reads `MIN-MAX` (`65-90`), each 0–100 and MIN ≤ MAX; nil for anything else.
    public static func quality(parsing text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Int(parts[0]), let high = Int(parts[1]),
              (0...100).contains(low), (0...100).contains(high), low <= high else { return nil }
        return low...high
    }

    public static let qualityUsage = "MIN-MAX, each 0–100 with MIN ≤ MAX, e.g. 65-90"

    /// Whether this build can make lossy palettes (built with the `LossyPalette` trait).
    public static var isAvailable: Bool {
        #if LossyPalette
        true
        #else
        false
        #endif
    }

    /// Why `lossy` cannot be used in this build; nil when it can.
    public static var unavailableReason: String? {
        isAvailable ? nil : "this Tessera was built without libimagequant: build with `--traits LossyPalette` "
            + "(libimagequant is GPL-3.0-or-later; see docs/png-encoding.md)"
    }

    /// "libimagequant 2.17.0", or "none" in a build without it.
    public static var libraryVersion: String { LossyPaletteQuantiser.libraryVersion }

    private enum CodingKeys: String, CodingKey {
        case mode, quality, speed, dither, library
    }

    /// Folded into the encode job's key: only `off` when off (its other settings change no byte),
    /// and libimagequant's version and dithering when lossy, which change the palette it picks.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mode, forKey: .mode)
        guard mode == .lossy else { return }
        try container.encode(quality, forKey: .quality)
        try container.encode(speed, forKey: .speed)
        try container.encode("1.0", forKey: .dither)
        try container.encode(LossyPaletteQuantiser.libraryVersion, forKey: .library)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(mode: try container.decode(Mode.self, forKey: .mode),
                  quality: try container.decodeIfPresent(ClosedRange<Int>.self, forKey: .quality) ?? Self.defaultQuality,
                  speed: try container.decodeIfPresent(Int.self, forKey: .speed) ?? Self.defaultSpeed)
    }
}
