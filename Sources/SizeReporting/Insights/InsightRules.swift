import TesseraCore

/// When a measurement becomes an insight, and what counts as a photograph: the thresholds, named
/// once (docs/size-report.md, "Insights").
public enum InsightRules {
    /// A lossless re-encode is reported when it saves at least this share of the file: less is
    /// within what another DEFLATE setting gives, not worth a change.
    public static let losslessMinimumSaving = 0.10
    /// A JPEG is reported when it is at most this share of the PNG ("far smaller")…
    public static let jpegMaximumShare = 0.5
    /// …and its pixels stay this close to the PNG's, in dB: at 35 dB and above differences are
    /// hard to see in a photograph; below, the trade is the reader's call, not advice.
    public static let jpegMinimumPSNR = 35.0

    /// Whether an image looks like a photograph, which JPEG suits: JPEG has no alpha and blurs
    /// hard edges, flat colour and text, which PNG keeps exactly and small. So a photograph here is
    ///
    /// - at least 64×64 pixels (an icon is art, and tiny files gain little),
    /// - every pixel opaque,
    /// - at least 1,024 distinct colours (artwork and UI use few; a camera's noise and gradients
    ///   make thousands), and
    /// - a PNG of at least 6 bits per pixel as Tessera writes it: flat artwork, UI and smooth
    ///   gradients compress far below that, a photograph's texture does not (re-encoded, not the
    ///   file: an uncompressed PNG of flat art is still flat art).
    ///
    /// `rgba`: straight RGBA8, `width * height * 4` bytes; `fileBytes`: the PNG's size re-encoded.
    /// App icons are never photographs here: the App Store takes them as PNG only.
    public static func looksPhotographic(rgba: UnsafeBufferPointer<UInt8>, width: Int, height: Int, fileBytes: Int) -> Bool {
        let pixels = width * height
        guard pixels >= 64 * 64, rgba.count >= pixels * 4, fileBytes * 8 >= pixels * 6 else { return false }
        var colours = Set<UInt32>()
        colours.reserveCapacity(1024)
        for index in 0..<pixels {
            let offset = index * 4
            guard rgba[offset + 3] == 255 else { return false }
            if colours.count < 1024 {
                colours.insert(UInt32(rgba[offset]) << 16 | UInt32(rgba[offset + 1]) << 8 | UInt32(rgba[offset + 2]))
            }
        }
        return colours.count >= 1024
    }

    /// Which distinct images are measured: PNGs, biggest first, at most `images` of them and
    /// `pixels` pixels in all (a bigger image that would overrun is passed for smaller ones).
    /// Deterministic, so the same build gives the same report; the rest are counted, not measured.
    public struct Budget: Sendable, Equatable {
        public var images: Int
        public var pixels: Int

        public init(images: Int, pixels: Int) {
            self.images = images
            self.pixels = pixels
        }

        /// 200 images and 2 million pixels: the best PNG effort (libdeflate's level 12, three
        /// quarters of the time) takes about a second a million pixels on one core, so this is
        /// about a second on two, whatever the build's size.
        public static let standard = Budget(images: 200, pixels: 2_000_000)
    }
}
