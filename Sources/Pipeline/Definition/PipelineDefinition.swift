import BuildOptions
import Decoding
import Downscaling
import Encoding
import FrameTiming
import Manifests
import Packing
import ReadyBitmaps
import SizeReporting
import Slicing
import TesseraCore

/// A pipeline file, read and checked: which stages run and with which options.
///
/// `decode` and `manifest` always run; `downscale` generates missing scales from the largest
/// master and may be left out (then only provided scales are output).
public struct PipelineDefinition: Sendable, Encodable {
    public var name: String
    public var decode: DecodeStageOptions
    public var variants: VariantStageOptions
    /// PDF and SVG sets drawn at every scale; nil when the pipeline has no rasterize stage (they
    /// are then carried byte for byte).
    public var rasterize: RasterizeStageOptions?
    public var downscale: DownscaleStageOptions?
    public var encode: EncodeStageOptions
    /// Ready-to-draw bitmaps for marked assets; nil when the pipeline has no decompress stage.
    public var decompress: DecompressStageOptions?
    /// How animated assets' timing records are computed.
    public var timing = TimingStageOptions()
    /// The device classes to write slice reports for; nil when the pipeline has no slice stage.
    public var slice: SliceStageOptions?
    /// Tagged bundles per device class; nil when the pipeline has no pack stage (it needs `slice`).
    public var pack: PackStageOptions?
    public var manifest: ManifestStageOptions
    /// Size report and budgets; nil when the pipeline has no report stage.
    public var report: ReportStageOptions?
    /// The app's targets, each a part of the input with its own device classes; empty: every
    /// asset goes to every device class of the `slice` stage.
    public var targets: [PipelineTarget] = []
    /// The app's build settings (`app:`): what Xcode compiles into the app itself, and its
    /// device family; a target's own settings start from these.
    public var app = AppBuildSettings()
    /// `app.tags`: on-demand tags by glob over asset names, for every asset read.
    public var tagRules = TagRules()

    public init(name: String, decode: DecodeStageOptions = .init(), variants: VariantStageOptions = .init(),
                downscale: DownscaleStageOptions? = .init(), encode: EncodeStageOptions = .init(),
                decompress: DecompressStageOptions? = nil, manifest: ManifestStageOptions = .init()) {
        self.name = name
        self.decode = decode
        self.variants = variants
        self.downscale = downscale
        self.encode = encode
        self.decompress = decompress
        self.manifest = manifest
    }
}

public struct DecodeStageOptions: Sendable, Encodable {
    public var maxPixels = OptionTable.Decode.maxPixels.defaultValue
    public init() {}
}

public struct VariantStageOptions: Sendable, Encodable {
    /// The scales every asset should be output at.
    public var scales = OptionTable.Variants.scales.defaultValue
    /// The scale of files named without `@Nx`.
    public var unsuffixedScale = OptionTable.Variants.unsuffixedScale.defaultValue
    public init() {}
}

public struct RasterizeStageOptions: Sendable, Encodable {
    /// Seconds one PDF render may take.
    public var renderSeconds = OptionTable.Rasterize.renderSeconds.defaultValue
    /// Vector files larger than this are refused unread.
    public var maxFileSize = OptionTable.Rasterize.maxFileSize.defaultValue
    public init() {}
}

public struct DownscaleStageOptions: Sendable, Encodable {
    public var filter = OptionTable.Downscale.filter.defaultValue
    /// Filter in linear light rather than on sRGB-encoded values.
    public var linearLight = OptionTable.Downscale.linearLight.defaultValue
    /// Working memory one downscale may use for its band buffers.
    public var memoryBudget = OptionTable.Downscale.memoryBudget.defaultValue
    public init() {}
}

public struct EncodeStageOptions: Sendable, Encodable {
    public var png = PNGEncoder()
    public var jpeg = JPEGEncoder()
    /// Lossy WebP settings; variants of lossless WebP masters are encoded lossless.
    public var webp = WebPEncoder()
    public init() {}
}

public struct PackStageOptions: Sendable, Encodable {
    /// Tags whose packs download with the app.
    public var initialInstallTags = OptionTable.Pack.initialInstall.defaultValue
    /// Tags to download right after install, in this order.
    public var prefetchOrder = OptionTable.Pack.prefetchOrder.defaultValue
    /// Where untagged sets go: the app (Xcode's and Gradle's split) or a base pack.
    public var untagged = OptionTable.Pack.untagged.defaultValue
    /// Prefixed to every bundle's relative path in the manifests (`https://cdn.example.com/app/`).
    public var baseURL = OptionTable.Pack.baseURL.defaultValue
    /// Which payloads are tried with xz (`docs/bundle-format.md`).
    public var compression = OptionTable.Pack.compress.defaultValue
    /// xz is used for a payload only when it saves at least this fraction.
    public var minimumSaving = OptionTable.Pack.minSaving.defaultValue
    /// liblzma preset, 0–9.
    public var compressionLevel = OptionTable.Pack.xzLevel.defaultValue
    /// A bundle larger than this is reported: 512 MB is Apple's per-pack limit before iOS 18
    /// (8 GB from iOS 18).
    public var packLimit = OptionTable.Pack.packLimit.defaultValue
    /// How managed asset pack IDs are made (docs/apple-asset-packs.md).
    public var applePackIDs = OptionTable.Pack.applePackIDs.defaultValue
    /// Whether the deprecated On-Demand Resources plists are written too.
    public var appleODR = OptionTable.Pack.appleODR.defaultValue
    /// Play device group → the Android device classes whose files it gets (docs/play-asset-delivery.md).
    public var playDeviceGroups = OptionTable.Pack.playDeviceGroups.defaultValue
    public init() {}
}

extension PackStageOptions {
    /// How payloads are compressed: the one place the pack options become a compressor.
    public var compressor: PayloadCompressor {
        PayloadCompressor(mode: compression, minimumSaving: minimumSaving, level: compressionLevel)
    }
}

public struct SliceStageOptions: Sendable, Encodable {
    /// Device identifiers (`docs/devices.md`).
    public var devices = OptionTable.Slice.devices.defaultValue
    public init() {}
}

public struct TimingStageOptions: Sendable, Encodable {
    public var clamp = OptionTable.Timing.clamp.defaultValue
    public var maxSlots = OptionTable.Timing.maxSlots.defaultValue
    /// GIF images without a delay: merged into the next frame (GIF89a) or frames of their own
    /// (browsers). Applies to timing records and to the frames of animated variants alike.
    public var subImages = OptionTable.Timing.subImages.defaultValue
    public init() {}
}

public struct DecompressStageOptions: Sendable, Encodable {
    /// Which assets, and the size budget; see `ForceDecodePolicy`.
    public var policy = ForceDecodePolicy(all: true)
    public var layout = OptionTable.Decompress.pixelFormat.defaultValue
    public init() {}
}

public struct ReportStageOptions: Sendable, Encodable {
    public var budget = SizeBudget()
    /// A previous build to compare with (`ReportedBuildLoader`); a relative path is taken from the
    /// current directory, as on the command line.
    public var against: String?
    /// Whether the report measures its insights (docs/size-report.md, "Insights").
    public var insights = OptionTable.Report.insights.defaultValue
    public init() {}
}

public struct ManifestStageOptions: Sendable, Encodable {
    /// File name of the manifest inside the output folder.
    public var file = OptionTable.Manifest.file.defaultValue
    public init() {}
}

extension PipelineDefinition {
    /// The definition as bytes that say what it means, the same in every process: its
    /// `InputDigest` (sets and dictionaries in canonical order by construction). (`String(reflecting:)`
    /// printed dictionaries, such as Play's device groups, in an order seeded per process, so two
    /// runners of one build could disagree on its hash.)
    public var fingerprint: [UInt8] {
        do {
            return try InputDigest.of(self).bytes
        } catch {
            // Every part is a plain value; encoding one cannot fail but by a programming error.
            preconditionFailure("\(error)")
        }
    }
}
