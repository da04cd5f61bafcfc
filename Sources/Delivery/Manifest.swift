import TesseraCore

/// The build's table of contents: every asset and the variant files made for it.
///
/// Written with sorted keys and assets and variants in a fixed order, and holding no timestamps,
/// so the same inputs and options always give the same bytes.
public struct Manifest: Sendable, Codable, Equatable {
    /// Bumped whenever a field changes meaning or goes away.
    public static let currentVersion = 1
    /// Bumped when fields are added that readers of the same `version` may ignore: 1 adds
    /// `objects` and `predecessors` (`docs/updates.md`).
    public static let currentMinorVersion = 1
    /// How many earlier builds a manifest lists (`predecessors`) and a build writes patches from.
    public static let maxPredecessors = 10

    public var version: Int
    /// The additions this manifest may hold (`currentMinorVersion`); absent in manifests written
    /// before there were any, which is minor version 0. Readers accept any: an addition never
    /// changes what an older field means.
    public var minorVersion: Int?
    /// The pipeline that produced it (its `name`).
    public var pipeline: String
    public var assets: [AssetEntry]
    /// Catalog items carried through as they are: colour sets, data sets, symbol sets.
    public var data: [DataEntry]
    /// The device classes bundles were built for (empty without a pack stage).
    public var deviceClasses: [DeviceClass] = []
    /// Packs: one per distinct tag set.
    public var packs: [PackEntry] = []
    /// Bundles: one pack for one device class.
    public var bundles: [BundleEntry] = []
    /// The files the app target compiles itself (`app/`: app icons, launcher icons, the sets the
    /// pipeline keeps in the app), which no pack holds; absent when there are none.
    public var app: [DataEntry]?
    /// Each device class's share of what stays in the app, as the App Store would thin it (with a
    /// pack stage; absent when nothing stays in the app). Additive: readers that predate it
    /// ignore it.
    public var appShares: [AppShare]?
    /// Every distinct bundle entry as a download of its own (`objects/<sha256>`, its transfer
    /// encoding and size), sorted by SHA-256; absent without bundles. Additive (minor version 1).
    public var objects: [TransferObject]?
    /// The manifests of the builds before this one that devices may still hold, newest first, at
    /// most `maxPredecessors`: a build made `--against` the previous one writes a patch from each
    /// (`docs/updates.md`). Absent without `--against`. Additive (minor version 1).
    public var predecessors: [ManifestReference]?

    public init(pipeline: String, assets: [AssetEntry], data: [DataEntry] = []) {
        self.version = Self.currentVersion
        self.minorVersion = Self.currentMinorVersion
        self.pipeline = pipeline
        self.assets = assets.sorted { $0.name < $1.name }
        self.data = data.sorted { ($0.name, $0.path) < ($1.name, $1.path) }
    }
}

/// One asset and its variants.
public struct AssetEntry: Sendable, Codable, Equatable {
    public var name: AssetID
    public var variants: [VariantEntry]
    /// For animated assets: how iOS should play them.
    public var animation: AnimationEntry?
    /// On-demand resource tags (from the catalog or `tessera.yml`), sorted; empty for initial-install assets.
    public var tags: [String]
    /// The catalog's `template-rendering-intent` (`template` or `original`); absent when unset.
    public var renderingIntent: String?
    /// The catalog's `preserves-vector-representation`; absent unless true.
    public var preservesVectorRepresentation: Bool?
    /// The PDF or SVG shipped beside the rendered variants when the set preserves its vector
    /// representation (the app draws it at sizes other than the renders'); absent otherwise.
    public var vector: VectorFileEntry?
    /// The catalog's image slicing (`resizing`: mode, centre, cap insets in points), which the app
    /// applies to the image it loads; absent when the set does not slice it. Additive: readers
    /// that predate it ignore it.
    public var resizing: ImageResizing?

    public init(name: AssetID, variants: [VariantEntry], animation: AnimationEntry? = nil, tags: [String] = [],
                renderingIntent: String? = nil, preservesVectorRepresentation: Bool = false, resizing: ImageResizing? = nil) {
        self.name = name
        self.variants = variants.sorted { $0.scale < $1.scale }
        self.animation = animation
        self.tags = tags.sorted()
        self.renderingIntent = renderingIntent
        self.preservesVectorRepresentation = preservesVectorRepresentation ? true : nil
        self.resizing = resizing
    }
}

/// An animated asset's timing record (`docs/frame-timing.md`): frame `i` is shown `repeats[i]`
/// times in a sequence of `tickMs`-long slots, which is what `UIImage.animatedImage(with:duration:)` takes.
public struct AnimationEntry: Sendable, Codable, Equatable {
    /// Raw delays as read, in ms.
    public var delaysMs: [Int]
    /// Delays after the clamp policy, in ms.
    public var durationsMs: [Int]
    public var repeats: [Int]
    public var tickMs: Int
    public var totalMs: Int
    /// The loop field as stored; absent when the file has none.
    public var loopCount: Int?
    /// Plays; absent means forever.
    public var plays: Int?
    public var clamp: String
    public var quantised: Bool
    public var maxErrorMs: Int

    public init(delaysMs: [Int], durationsMs: [Int], repeats: [Int], tickMs: Int, totalMs: Int, loopCount: Int?,
                plays: Int?, clamp: String, quantised: Bool, maxErrorMs: Int) {
        self.delaysMs = delaysMs
        self.durationsMs = durationsMs
        self.repeats = repeats
        self.tickMs = tickMs
        self.totalMs = totalMs
        self.loopCount = loopCount
        self.plays = plays
        self.clamp = clamp
        self.quantised = quantised
        self.maxErrorMs = maxErrorMs
    }
}

/// One output file: what it is, where, and how to check it.
public struct VariantEntry: Sendable, Codable, Equatable {
    public var scale: DisplayScale
    /// Relative to the manifest's folder, `/`-separated.
    public var path: String
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    public var bytes: Int
    public var sha256: ContentHash
    /// True when Tessera made it (by downscaling, or by rendering a PDF or SVG); false when the source provided it.
    public var generated: Bool
    /// The input file the pixels came from, relative to the input folder.
    public var source: String
    /// The ready-to-draw bitmap made for this variant, when the pipeline's decompress stage marks the asset.
    public var readyBitmap: ReadyBitmapEntry?
    /// True for a single-scale set's file, drawn at any scale (slices and bundle records say
    /// `scale=any`); `scale` is then 1x, the scale its pixels are taken at. Absent otherwise.
    public var anyScale: Bool?

    public init(scale: DisplayScale, path: String, format: ImageFormat, width: Int, height: Int, bytes: Int,
                sha256: ContentHash, generated: Bool, source: String, readyBitmap: ReadyBitmapEntry? = nil) {
        self.scale = scale
        self.path = path
        self.format = format
        self.width = width
        self.height = height
        self.bytes = bytes
        self.sha256 = sha256
        self.generated = generated
        self.source = source
        self.readyBitmap = readyBitmap
    }
}

/// A PDF or SVG carried byte for byte beside its renders.
public struct VectorFileEntry: Sendable, Codable, Equatable {
    /// Relative to the manifest's folder, `/`-separated.
    public var path: String
    public var format: ImageFormat
    public var bytes: Int
    public var sha256: ContentHash
    /// The input file, relative to the input folder.
    public var source: String

    public init(path: String, format: ImageFormat, bytes: Int, sha256: ContentHash, source: String) {
        self.path = path
        self.format = format
        self.bytes = bytes
        self.sha256 = sha256
        self.source = source
    }
}

/// A ready-to-draw bitmap file (`docs/bitmap-format.md`) made for one variant.
public struct ReadyBitmapEntry: Sendable, Codable, Equatable {
    public var path: String
    /// `bgra8` or `rgba8`, premultiplied.
    public var layout: String
    /// May be smaller than the variant's size when the decoded-size budget required a downscale.
    public var width: Int
    public var height: Int
    public var bytes: Int
    public var sha256: ContentHash

    public init(path: String, layout: String, width: Int, height: Int, bytes: Int, sha256: ContentHash) {
        self.path = path
        self.layout = layout
        self.width = width
        self.height = height
        self.bytes = bytes
        self.sha256 = sha256
    }
}

/// One file of a catalog item carried through unchanged (a colour set's Contents.json, a data set's file).
public struct DataEntry: Sendable, Codable, Equatable {
    public var name: AssetID
    /// `color`, `data` or `symbol`.
    public var kind: String
    public var path: String
    public var bytes: Int
    public var sha256: ContentHash
    public var tags: [String]

    public init(name: AssetID, kind: String, path: String, bytes: Int, sha256: ContentHash, tags: [String]) {
        self.name = name
        self.kind = kind
        self.path = path
        self.bytes = bytes
        self.sha256 = sha256
        self.tags = tags
    }
}

/// A pack as the manifest lists it (`docs/bundle-format.md` explains IDs, categories, priorities).
public struct PackEntry: Sendable, Codable, Equatable {
    public var id: String
    public var tags: [String]
    public var category: PackCategory
    public var priority: Double?

    public init(id: String, tags: [String], category: PackCategory, priority: Double?) {
        self.id = id
        self.tags = tags
        self.category = category
        self.priority = priority
    }
}

/// One bundle file: a pack's contents for one device class.
public struct BundleEntry: Sendable, Codable, Equatable {
    public var pack: String
    public var device: String
    /// The base URL (from the pipeline) joined with `path`.
    public var url: String
    /// Relative to the manifest's folder.
    public var path: String
    public var bytes: Int
    public var uncompressedSize: Int
    public var sha256: ContentHash
    /// Entry names inside the bundle, sorted.
    public var entries: [String]

    public init(pack: String, device: String, url: String, path: String, bytes: Int, uncompressedSize: Int,
                sha256: ContentHash, entries: [String]) {
        self.pack = pack
        self.device = device
        self.url = url
        self.path = path
        self.bytes = bytes
        self.uncompressedSize = uncompressedSize
        self.sha256 = sha256
        self.entries = entries
    }
}
