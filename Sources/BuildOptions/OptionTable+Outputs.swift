import Decoding
import ReadyBitmaps
import FrameTiming

extension OptionTable {
    /// `stages.decompress`; `pixel-format` is also `tessera convert`'s.
    public enum Decompress {
        public static let include = OptionSpec<[String]?>.words(
            .decompress, "include", default: nil, shown: nil,
            help: "Globs over asset names whose variants get a ready-to-draw .bitmap.") { $0 }

        public static let everyAsset = OptionSpec<Bool?>(
            .decompress, "all", default: nil, shown: "true unless include is given", valueName: "bool",
            help: "Every asset gets a .bitmap.", parser: .boolean { $0 })

        public static let animated = OptionSpec<Bool>.flag(.decompress, "animated", help: "Animated images too (first frame).")

        public static let pixelFormat = OptionSpec<ReadyPixelLayout>.choice(
            .decompress, "pixel-format", default: .bgra8, help: "Layout of .bitmap output: bgra8 (iOS native) or rgba8.")

        public static let maxBytes = OptionSpec<Int?>.size(
            .decompress, "max-bytes", default: nil, shown: nil,
            help: "Decoded-size budget; larger variants are downscaled to fit first.") { $0.bytes }

        public static let all: [any DeclaredOption] = [include, everyAsset, animated, pixelFormat, maxBytes]
    }

    /// `stages.timing`, and `tessera timing`.
    public enum Timing {
        public static let clamp = OptionSpec<ClampPolicy>(
            .timing, "clamp", default: .browser, shown: "browser", valueName: "policy",
            help: "How animation delays become durations: browser, none, or min:N (N in ms, at most \(ClampPolicy.maximumFloorMs)).",
            parser: .text { text throws(OptionError) in
                guard let policy = ClampPolicy(parsing: text) else {
                    throw OptionError("'\(text)' is not a clamp policy: \(ClampPolicy.usage)")
                }
                return policy
            })

        public static let maxSlots = OptionSpec.integer(
            .timing, "max-slots", default: FrameTiming.defaultMaxSlots, range: 1...FrameTiming.maxSlotsLimit,
            help: "The most frame slots an animation's sequence may have.")

        public static let subImages = OptionSpec<SubImagePolicy>.choice(
            .timing, "sub-images", default: .merge,
            help: "GIF images without a delay: merge draws them with the next image as one frame (GIF89a), separate keeps each a frame (browsers).")

        public static let all: [any DeclaredOption] = [clamp, maxSlots, subImages]
    }
}
