/// How an image stretches when drawn larger than its size: Xcode's image slicing, the `resizing`
/// of an asset catalog image entry (Asset Catalog Format Reference), in points.
///
/// The corners (the cap insets) are drawn as they are; the edges between them and the centre are
/// tiled or stretched to fill. UIKit takes it as `resizableImage(withCapInsets:resizingMode:)`,
/// AppKit as `NSImage.capInsets` and `resizingMode`; Xcode compiles it into the rendition, which a
/// file loaded from a bundle lacks, so the build carries it in the manifest and the slice rows.
public struct ImageResizing: Sendable, Hashable, Codable {
    /// Which directions the image resizes in.
    public enum Mode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Left and right caps; only the width changes.
        case threePartHorizontal = "3-part-horizontal"
        /// Top and bottom caps; only the height changes.
        case threePartVertical = "3-part-vertical"
        /// Four caps; both directions change.
        case ninePart = "9-part"
    }

    /// How the resizable part fills the space between the caps.
    public enum CenterMode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Repeated at its own size (UIKit's `.tile`, AppKit's `.tile`; Xcode's default).
        case tile
        /// Scaled to fill (`.stretch`).
        case stretch
    }

    /// The resizable part: how it fills, and its size in points as Xcode's slicing editor wrote it
    /// (absent when the catalog gives none).
    public struct Center: Sendable, Hashable, Codable {
        public var mode: CenterMode
        public var width: Double?
        public var height: Double?

        public init(mode: CenterMode, width: Double? = nil, height: Double? = nil) {
            self.mode = mode
            self.width = width
            self.height = height
        }
    }

    /// The fixed borders, in points from each edge.
    public struct CapInsets: Sendable, Hashable, Codable {
        public var top: Double
        public var left: Double
        public var bottom: Double
        public var right: Double

        public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
            self.top = top
            self.left = left
            self.bottom = bottom
            self.right = right
        }
    }

    /// The largest length, in points, a manifest may give (the same bound as a variant's side in pixels).
    public static let maxPoints = Double(ManifestLimits.maxSide)

    public var mode: Mode
    public var center: Center
    /// As the mode uses them: a 3-part-horizontal image has no top or bottom cap, a 3-part-vertical
    /// one no left or right cap (Xcode ignores those insets, and UIKit would otherwise resize the
    /// image in the direction the catalog keeps fixed).
    public var capInsets: CapInsets

    /// Every length times `factor`: a catalog entry's slicing is in the pixels of its own image
    /// (Xcode writes a 2x file's insets twice its points, a 3x one's three times), so the reader
    /// divides by the entry's scale to get points.
    public func scaled(by factor: Double) -> ImageResizing {
        ImageResizing(mode: mode,
                      center: Center(mode: center.mode, width: center.width.map { $0 * factor }, height: center.height.map { $0 * factor }),
                      capInsets: CapInsets(top: capInsets.top * factor, left: capInsets.left * factor,
                                           bottom: capInsets.bottom * factor, right: capInsets.right * factor))
    }

    /// `capInsets` as the mode uses them (see `capInsets`).
    public init(mode: Mode, center: Center, capInsets: CapInsets) {
        self.mode = mode
        self.center = center
        var used = capInsets
        switch mode {
        case .threePartHorizontal: used.top = 0; used.bottom = 0
        case .threePartVertical: used.left = 0; used.right = 0
        case .ninePart: break
        }
        self.capInsets = used
    }

    /// Decoded through `init(mode:center:capInsets:)`, so a manifest giving a 3-part image insets
    /// across its fixed direction (one Tessera did not write) still resizes in one direction only.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(mode: try container.decode(Mode.self, forKey: .mode), center: try container.decode(Center.self, forKey: .center),
                  capInsets: try container.decode(CapInsets.self, forKey: .capInsets))
    }

    /// The value of a bundle record's `resizing` trait (`docs/bundle-format.md`): the mode, the
    /// centre's mode and the cap insets top, left, bottom, right in points, as
    /// `9-part/tile/8,13.67,8,14`; so a bundle read without its manifest still says how to draw
    /// the image. Points to a hundredth (a third of a 3x pixel is 0.33), whole ones without a fraction.
    public var recordValue: String {
        func points(_ value: Double) -> String {
            let hundredths = (value * 100).rounded()
            guard abs(hundredths) < 1e15 else { return String(value) }
            let whole = Int64(hundredths) / 100, fraction = abs(Int64(hundredths) % 100)
            return fraction == 0 ? String(whole) : fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
        }
        let insets = [capInsets.top, capInsets.left, capInsets.bottom, capInsets.right].map(points).joined(separator: ",")
        return "\(mode.rawValue)/\(center.mode.rawValue)/\(insets)"
    }

    /// The first value that is not a length in points (finite, 0 to `maxPoints`), as a reason
    /// naming its field; nil when every value is one.
    public func violation() -> String? {
        let lengths: [(String, Double?)] = [
            ("center.width", center.width), ("center.height", center.height),
            ("capInsets.top", capInsets.top), ("capInsets.left", capInsets.left),
            ("capInsets.bottom", capInsets.bottom), ("capInsets.right", capInsets.right),
        ]
        for case let (field, value?) in lengths where !(value.isFinite && (0...Self.maxPoints).contains(value)) {
            return "resizing \(field) is \(value); a length in points is finite, 0 to \(Int(Self.maxPoints))"
        }
        return nil
    }
}
