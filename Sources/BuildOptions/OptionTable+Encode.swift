import Encoding

extension OptionTable {
    /// `stages.encode`, and the encoding options of `tessera convert` and `tessera downscale`.
    public enum Encode {
        public static let pngEffort = OptionSpec<PNGEffort>.choice(
            .encode, "png-effort", default: .default,
            help: "How hard the PNG encoder works for smaller files: fast, default or max (levels 3, 7, 12).")

        // `png-level` beside `xz-level`, `jpeg-quality`, `webp-quality`: format, then what it sets.
        public static let pngLevel = OptionSpec<Int?>(
            .encode, "png-level", default: nil, shown: "the effort's", valueName: "0-12",
            help: "PNG DEFLATE level 0–12 (libdeflate's scale; 0 stores); overrides png-effort's level.",
            deprecatedNames: ["png-compression-level"], parser: .integer(0...12) { $0 })

        public static let pngPalette = OptionSpec<PNGPalette.Mode>(
            .encode, "png-palette", default: .off, shown: "off", valueName: "off|lossy",
            help: "off (lossless) or lossy: at most 256 colours through libimagequant, written as an indexed PNG.",
            parser: .text { text throws(OptionError) in
                guard let mode = PNGPalette.Mode(rawValue: text) else {
                    throw OptionError("'\(text)' is not one of \(PNGPalette.Mode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                if mode == .lossy, let reason = PNGPalette.unavailableReason { throw OptionError("'lossy': \(reason)") }
                return mode
            })

        // `png-palette-quality` beside `png-palette-speed`: both tune the lossy palette.
        public static let pngPaletteQuality = OptionSpec<ClosedRange<Int>>(
            .encode, "png-palette-quality", default: PNGPalette.defaultQuality,
            shown: "\(PNGPalette.defaultQuality.lowerBound)-\(PNGPalette.defaultQuality.upperBound)", valueName: "MIN-MAX",
            help: "Lossy palette quality MIN-MAX, 0–100: below MIN the PNG is written truecolour; no colours are spent past MAX.",
            deprecatedNames: ["png-quality"],
            parser: .text { text throws(OptionError) in
                guard let range = PNGPalette.quality(parsing: text) else {
                    throw OptionError("'\(text)' is not a quality range: use \(PNGPalette.qualityUsage)")
                }
                return range
            })

        public static let pngPaletteSpeed = OptionSpec.integer(
            .encode, "png-palette-speed", default: PNGPalette.defaultSpeed, range: PNGPalette.speeds,
            help: "libimagequant's speed, 1 (best) to 10 (fastest).")

        public static let jpegQuality = OptionSpec.integer(
            .encode, "jpeg-quality", default: JPEGEncoder().quality, range: 1...100, help: "JPEG quality, 1–100.")

        public static let jpegProgressive = OptionSpec<Bool>.flag(.encode, "jpeg-progressive", help: "Progressive JPEG.")

        public static let jpegChroma = OptionSpec<JPEGEncoder.ChromaSubsampling>.choice(
            .encode, "jpeg-chroma", default: JPEGEncoder().chroma, help: "JPEG chroma subsampling: 4:2:0 or 4:4:4.")

        public static let webpQuality = OptionSpec.integer(
            .encode, "webp-quality", default: WebPEncoder().quality, range: 0...100,
            help: "Lossy WebP quality, 0–100; variants of lossless WebP masters stay lossless.")

        public static let all: [any DeclaredOption] = [pngEffort, pngLevel, pngPalette, pngPaletteQuality, pngPaletteSpeed,
                                                       jpegQuality, jpegProgressive, jpegChroma, webpQuality]
    }
}
