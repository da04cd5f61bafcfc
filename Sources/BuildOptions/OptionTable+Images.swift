import Decoding
import Downscaling
import Rasterizing
import StreamingDownscaling
import TesseraCore

extension OptionTable {
    /// `stages.decode`.
    public enum Decode {
        public static let maxPixels = OptionSpec.integer(
            .decode, "max-pixels", default: DecodeOptions.defaultMaxPixels, range: 1...Int(Int32.max) * 8,
            help: "Images with more pixels (16384 × 16384 by default) are refused before any pixel memory is allocated.")

        public static let all: [any DeclaredOption] = [maxPixels]
    }

    /// `stages.variants`.
    public enum Variants {
        public static let scales = OptionSpec<[DisplayScale]>.words(
            .variants, "scales", default: [.x1, .x2, .x3], shown: "[1x, 2x, 3x]",
            help: "The scales every asset is output at (1x–4x).") { items throws(OptionError) in
                guard !items.isEmpty else { throw OptionError("list at least one scale") }
                var scales: [DisplayScale] = []
                for (index, item) in items.enumerated() { scales.append(try scale(item, item: index)) }
                return scales
            }

        public static let unsuffixedScale = OptionSpec<DisplayScale>(
            .variants, "unsuffixed-scale", default: .x1, shown: "1x", valueName: "scale",
            help: "The scale of files named without @Nx (Xcode's convention is 1x).",
            parser: .text { text throws(OptionError) in try scale(text, item: nil) })

        static func scale(_ text: String, item: Int?) throws(OptionError) -> DisplayScale {
            guard let scale = DisplayScale(parsing: text) else {
                throw OptionError("'\(text)' is not a scale: use 1x, 2x, 3x or 4x", item: item)
            }
            return scale
        }

        public static let all: [any DeclaredOption] = [scales, unsuffixedScale]
    }

    /// `stages.rasterize`: PDF and SVG image sets drawn at every scale a device needs (docs/vectors.md).
    public enum Rasterize {
        public static let renderSeconds = OptionSpec.integer(
            .rasterize, "render-seconds", default: Int(VectorLimits().renderSeconds), range: 1...3600,
            help: "A PDF render still running after this many seconds is stopped and its asset fails (SVG renders are bounded by max-file-size and librsvg's own limits).")

        public static let maxFileSize = OptionSpec<Int>.size(
            .rasterize, "max-file-size", default: VectorLimits().maxInputBytes, shown: "16MiB",
            help: "PDF and SVG files larger than this are refused unread.") { max(1, $0.bytes) }

        public static let all: [any DeclaredOption] = [renderSeconds, maxFileSize]
    }

    /// `stages.downscale`, and `tessera downscale`.
    public enum Downscale {
        public static let filter = OptionSpec<ResamplingFilter>.choice(
            .downscale, "filter", default: .lanczos3,
            help: "Resampling filter: box (exact area average), triangle, mitchell, catmull-rom or lanczos3.")

        public static let linearLight = OptionSpec<Bool>.flag(
            .downscale, "linear-light", help: "Filter in linear light instead of on sRGB values.")

        public static let memoryBudget = OptionSpec<Int>.size(
            .downscale, "memory-budget", default: StreamingDownscale.defaultMemoryBudget, shown: "64MiB",
            help: "Working memory of one downscale's band buffers (its decode streams within it).") { max(1, $0.bytes) }

        public static let all: [any DeclaredOption] = [filter, linearLight, memoryBudget]
    }
}
