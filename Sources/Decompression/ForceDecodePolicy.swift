import TesseraCore

/// Which assets get a ready-to-draw bitmap, the build-time version of SDWebImage's `shouldDecode`:
///
/// - an asset is decompressed when it matches one of `include` (globs over asset names, `*` within
///   a path segment, `**` across segments), or when `all` is set;
/// - animated images are not decompressed unless `includeAnimated` is set: their frames are
///   decoded as they play, and a bitmap of the first frame is only useful as a placeholder;
/// - an image whose decoded size (width × height × 4) exceeds `maxDecodedBytes` is downscaled
///   first, keeping its aspect ratio, to the largest size within the budget (each side scaled by
///   √(budget / size), never below 1 pixel), as SDWebImage scales down large images.
public struct ForceDecodePolicy: Sendable {
    public var include: [String]
    public var all: Bool
    public var includeAnimated: Bool
    public var maxDecodedBytes: Int?

    public init(include: [String] = [], all: Bool = false, includeAnimated: Bool = false,
                maxDecodedBytes: Int? = nil) {
        self.include = include
        self.all = all
        self.includeAnimated = includeAnimated
        self.maxDecodedBytes = maxDecodedBytes
    }

    /// Whether `asset` gets a ready bitmap.
    public func shouldDecode(asset: AssetID, animated: Bool) -> Bool {
        if animated && !includeAnimated { return false }
        return all || include.contains { Glob($0).matches(asset.name) }
    }

    /// The size to write a `width`×`height` image at under the byte budget.
    public func targetSize(width: Int, height: Int) -> (width: Int, height: Int) {
        guard let budget = maxDecodedBytes, width * height * 4 > budget else { return (width, height) }
        let factor = (Double(budget) / Double(width * height * 4)).squareRoot()
        var size = (width: max(1, Int(Double(width) * factor)), height: max(1, Int(Double(height) * factor)))
        // Flooring both sides keeps the result within budget except in the 1-pixel clamp.
        while size.width * size.height * 4 > budget, size.width > 1 || size.height > 1 {
            if size.width >= size.height { size.width -= 1 } else { size.height -= 1 }
        }
        return size
    }
}

/// Shell-style globs over `/`-separated names: `*` and `?` stay within a segment, `**` spans segments.
public struct Glob: Sendable {
    private let pattern: [Character]

    public init(_ pattern: String) { self.pattern = Array(pattern) }

    public func matches(_ name: String) -> Bool {
        Self.match(pattern[...], Array(name)[...])
    }

    private static func match(_ pattern: ArraySlice<Character>, _ text: ArraySlice<Character>) -> Bool {
        guard let head = pattern.first else { return text.isEmpty }
        if head == "*" {
            let spansSegments = pattern.dropFirst().first == "*"
            var rest = pattern.dropFirst(spansSegments ? 2 : 1)
            if spansSegments, rest.first == "/" {
                // "**/" also matches no folder at all.
                if match(rest.dropFirst(), text) { return true }
                rest = pattern.dropFirst(2)
            }
            var index = text.startIndex
            while true {
                if match(rest, text[index...]) { return true }
                guard index < text.endIndex, spansSegments || text[index] != "/" else { return false }
                index += 1
            }
        }
        guard let character = text.first else { return false }
        if head == "?" ? character != "/" : head == character {
            return match(pattern.dropFirst(), text.dropFirst())
        }
        return false
    }
}
