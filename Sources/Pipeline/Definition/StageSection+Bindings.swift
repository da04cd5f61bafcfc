import BuildOptions
import Encoding
import TesseraCore

extension DecodeStageOptions: StageSection {
    public static let bindings: [OptionBinding<Self>] = [OptionBinding(OptionTable.Decode.maxPixels, \.maxPixels)]
}

extension VariantStageOptions: StageSection {
    public static let bindings: [OptionBinding<Self>] = [
        OptionBinding(OptionTable.Variants.scales, \.scales),
        OptionBinding(OptionTable.Variants.unsuffixedScale, \.unsuffixedScale),
    ]
}

extension RasterizeStageOptions: StageSection {
    public static let bindings: [OptionBinding<Self>] = [
        OptionBinding(OptionTable.Rasterize.renderSeconds, \.renderSeconds),
        OptionBinding(OptionTable.Rasterize.maxFileSize, \.maxFileSize),
    ]
}

extension DownscaleStageOptions: StageSection {
    public static let bindings: [OptionBinding<Self>] = [
        OptionBinding(OptionTable.Downscale.filter, \.filter),
        OptionBinding(OptionTable.Downscale.linearLight, \.linearLight),
        OptionBinding(OptionTable.Downscale.memoryBudget, \.memoryBudget),
    ]
}

extension EncodeStageOptions: StageSection {
    typealias Encode = OptionTable.Encode
    public static let bindings: [OptionBinding<Self>] = [
        // The effort sets the level it stands for; a level given after it wins.
        OptionBinding(Encode.pngEffort) { $0.png = PNGEncoder(effort: $1, palette: $0.png.palette) },
        OptionBinding(Encode.pngLevel) { options, level in
            if let level { options.png = PNGEncoder(effort: options.png.effort, compressionLevel: level, palette: options.png.palette) }
        },
        OptionBinding(Encode.pngPalette, \.png.palette.mode),
        OptionBinding(Encode.pngPaletteQuality, \.png.palette.quality),
        OptionBinding(Encode.pngPaletteSpeed, \.png.palette.speed),
        OptionBinding(Encode.jpegQuality, \.jpeg.quality),
        OptionBinding(Encode.jpegProgressive, \.jpeg.progressive),
        OptionBinding(Encode.jpegChroma, \.jpeg.chroma),
        OptionBinding(Encode.webpQuality, \.webp.quality),
    ]
}

extension DecompressStageOptions: StageSection {
    typealias Decompress = OptionTable.Decompress
    public static let bindings: [OptionBinding<Self>] = [
        OptionBinding(Decompress.include) { options, globs in
            guard let globs else { return }
            options.policy.include = globs
            // Naming assets turns "every asset" off unless it is asked for as well.
            options.policy.all = false
        },
        OptionBinding(Decompress.everyAsset) { options, all in if let all { options.policy.all = all } },
        OptionBinding(Decompress.animated, \.policy.includeAnimated),
        OptionBinding(Decompress.pixelFormat, \.layout),
        OptionBinding(Decompress.maxBytes) { options, budget in if let budget { options.policy.maxDecodedBytes = budget } },
    ]
}

extension TimingStageOptions: StageSection {
    public static let bindings: [OptionBinding<Self>] = [
        OptionBinding(OptionTable.Timing.clamp, \.clamp),
        OptionBinding(OptionTable.Timing.maxSlots, \.maxSlots),
        OptionBinding(OptionTable.Timing.subImages, \.subImages),
    ]
}

extension SliceStageOptions: StageSection {
    public static let bindings: [OptionBinding<Self>] = [OptionBinding(OptionTable.Slice.devices, \.devices)]
}

extension PackStageOptions: StageSection {
    typealias Pack = OptionTable.Pack
    public static let bindings: [OptionBinding<Self>] = [
        OptionBinding(Pack.initialInstall, \.initialInstallTags),
        OptionBinding(Pack.prefetchOrder, \.prefetchOrder),
        OptionBinding(Pack.untagged, \.untagged),
        OptionBinding(Pack.baseURL, \.baseURL),
        OptionBinding(Pack.minSaving, \.minimumSaving),
        OptionBinding(Pack.compress, \.compression),
        OptionBinding(Pack.xzLevel, \.compressionLevel),
        OptionBinding(Pack.packLimit, \.packLimit),
        OptionBinding(Pack.applePackIDs, \.applePackIDs),
        OptionBinding(Pack.appleODR, \.appleODR),
        OptionBinding(Pack.playDeviceGroups, \.playDeviceGroups),
    ]
}

extension ManifestStageOptions: StageSection {
    public static let bindings: [OptionBinding<Self>] = [OptionBinding(OptionTable.Manifest.file, \.file)]
}

extension ReportStageOptions: StageSection {
    typealias Report = OptionTable.Report
    public static let bindings: [OptionBinding<Self>] = [
        OptionBinding(Report.maxInstall, \.budget.maxInstall),
        OptionBinding(Report.maxPack, \.budget.maxPack),
        OptionBinding(Report.maxTotal, \.budget.maxTotal),
        OptionBinding(Report.maxAsset, \.budget.maxAsset),
        OptionBinding(Report.maxTag, \.budget.maxTag),
        OptionBinding(Report.maxInstallGrowth, \.budget.maxInstallGrowth),
        OptionBinding(Report.maxPackGrowth, \.budget.maxPackGrowth),
        OptionBinding(Report.maxAssetGrowth, \.budget.maxAssetGrowth),
        OptionBinding(Report.maxUpdate, \.budget.maxUpdate),
        OptionBinding(Report.against, \.against),
        OptionBinding(Report.insights, \.insights),
    ]

    public func checked() throws(TesseraError) -> ReportStageOptions {
        if budget.limitsGrowth, against == nil {
            throw TesseraError(.configuration, origin: .pipeline,
                               reason: "'stages.report': growth budgets (max-install-growth, max-pack-growth, max-asset-growth) need 'against', the previous build to compare with")
        }
        if budget.maxUpdate != nil, against == nil {
            throw TesseraError(.configuration, origin: .pipeline,
                               reason: "'stages.report': max-update needs 'against', the previous build devices update from")
        }
        return self
    }
}
