import Slicing
import TesseraCore

extension BuildPlanner {
    /// The first phase: what the input holds and which variants it calls for, with every problem
    /// the catalog, the app's kept sets and the variant plan found.
    struct Scan {
        var read: AssetCatalogReader.Result
        let keeping: AppKeeping
        let sources: CatalogSources.SourceSet
        /// The vector formats drawn at each scale (none without a `rasterize` stage).
        let renders: Set<ImageFormat>
        let variants: VariantPlanner.Plan
        let problems: [BuildProblem]
    }

    func scan() throws(TesseraError) -> Scan {
        // An output folder inside the input folder is never read back as input.
        var read = try FolderCatalogReader(unsuffixedScale: definition.variants.unsuffixedScale,
                                           excluding: [outputFolder]).read(root: inputFolder)
        // The pipeline's tag rules, after the input's own tessera.yml: both add to a set's tags.
        let (tagged, unmatchedRules) = definition.tagRules.apply(to: read.assets)
        read.assets = tagged
        let keeping = AppKeeping(assets: read.assets, definition: definition, inputFolder: inputFolder)
        read.assets = keeping.shipped
        var sources = CatalogSources.sourceImages(read.assets, unsuffixedScale: definition.variants.unsuffixedScale)
        try limitScales(of: &sources, assets: read.assets)
        let renders = definition.rasterize == nil ? [] : RasterizeStage.renderedFormats
        let planner = VariantPlanner(scales: definition.variants.scales, generatesMissing: definition.downscale != nil,
                                     renders: renders)
        let variantPlan = planner.plan(sources.images, copyOnly: sources.copyOnly, slotScales: sources.slotScales,
                                       scaleCeilings: sources.scaleCeilings)
        var problems = variantPlan.problems.map {
            BuildProblem(severity: $0.isError ? .error : .warning, file: "\(inputFolder)/\($0.file)", stage: ProblemOrigin.plan,
                         reason: $0.reason)
        }
        problems += read.problems.map {
            BuildProblem(severity: $0.isError ? .error : .warning, file: "\(inputFolder)/\($0.file)", stage: ProblemOrigin.catalog,
                         reason: ($0.key.map { "'\($0)': " } ?? "") + $0.reason)
        }
        problems += keeping.problems
        // Named by the pipeline file's line, not under the input folder.
        problems += unmatchedRules.map {
            BuildProblem(severity: .warning, file: $0.file, stage: ProblemOrigin.pipeline, reason: "'\($0.key ?? "")': " + $0.reason)
        }
        if definition.rasterize != nil, !renders.contains(.pdf) {
            // Said once per file: the build goes on, shipping the PDF as it is.
            for image in sources.images where image.declaredFormat == .pdf {
                problems.append(BuildProblem(severity: .warning, file: "\(inputFolder)/\(image.relativePath)",
                                             stage: ProblemOrigin.rasterize, reason: Self.pdfCarriedReason))
            }
        }
        return Scan(read: read, keeping: keeping, sources: sources, renders: renders, variants: variantPlan, problems: problems)
    }
}
