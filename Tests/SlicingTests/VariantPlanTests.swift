import Slicing
import Testing
import TesseraCore

@Suite("Variant planning")
struct VariantPlanTests {
    private func image(_ path: String, _ asset: String, _ scale: DisplayScale) -> SourceImage {
        SourceImage(relativePath: path, asset: AssetID(asset), scale: scale, declaredFormat: .png)
    }

    @Test("file names declare scale only by a trailing @Nx")
    func fileNames() {
        #expect(FileNameTraits.parse(stem: "icon@2x", unsuffixedScale: .x1) == ("icon", .x2))
        #expect(FileNameTraits.parse(stem: "icon", unsuffixedScale: .x1) == ("icon", .x1))
        #expect(FileNameTraits.parse(stem: "icon", unsuffixedScale: .x3) == ("icon", .x3))
        #expect(FileNameTraits.parse(stem: "a@2x-b", unsuffixedScale: .x1) == ("a@2x-b", .x1))
        #expect(FileNameTraits.parse(stem: "@2x", unsuffixedScale: .x1) == ("@2x", .x1))
        #expect(FileNameTraits.parse(stem: "Frame 1@3x", unsuffixedScale: .x1) == ("Frame 1", .x3))
        #expect(FileNameTraits.parse(stem: "icon@9x", unsuffixedScale: .x1) == ("icon@9x", .x1))
    }

    @Test("provided scales are kept, missing smaller ones come from the largest master, larger ones are reported")
    func planRule() {
        let plan = VariantPlanner(scales: [.x1, .x2, .x3]).plan([
            image("a@3x.png", "a", .x3), image("a@2x.png", "a", .x2),
            image("b@2x.png", "b", .x2),
        ])
        let summary = plan.variants.map { variant -> String in
            switch variant.origin {
            case .provided(let source): "\(variant.asset) \(variant.scale) copy \(source.relativePath)"
            case .generated(let master): "\(variant.asset) \(variant.scale) from \(master.relativePath)"
            case .rendered(let vector): "\(variant.asset) \(variant.scale) render \(vector.relativePath)"
            }
        }
        #expect(summary == ["a 1x from a@3x.png", "a 2x copy a@2x.png", "a 3x copy a@3x.png",
                            "b 1x from b@2x.png", "b 2x copy b@2x.png"])
        #expect(plan.variants.map(\.outputPath) == ["variants/a.png", "variants/a@2x.png", "variants/a@3x.png",
                                                    "variants/b.png", "variants/b@2x.png"])
        #expect(plan.problems.map(\.reason) == ["no 3x variant: the largest source is 2x and Tessera does not upscale"])
        // In a catalog, as in Xcode, a set without its 3x is no warning.
        let catalog = VariantPlanner(scales: [.x1, .x2, .x3]).plan([image("A.xcassets/b.imageset/b@2x.png", "b", .x2)])
        #expect(catalog.problems.isEmpty && catalog.variants.map(\.scale) == [.x1, .x2])
    }

    @Test("a vector group gets every scale rendered, at any scale, and a provided raster scale wins")
    func vectorsAreRenderedAtEveryScale() {
        let planner = VariantPlanner(scales: [.x1, .x2, .x3], renders: [.svg, .pdf])
        let plan = planner.plan([
            SourceImage(relativePath: "logo.svg", asset: AssetID("logo"), scale: .x1, declaredFormat: .svg),
            SourceImage(relativePath: "mark.pdf", asset: AssetID("mark"), scale: .x1, declaredFormat: .pdf),
            image("mark@2x.png", "mark", .x2),
            SourceImage(relativePath: "photo.heic", asset: AssetID("photo"), scale: .x1, declaredFormat: .heic),
        ], copyOnly: [AssetID("logo"), AssetID("mark"), AssetID("photo")])
        #expect(plan.variants.map { "\($0.asset) \($0.scale) \($0.outputPath)" } == [
            "logo 1x variants/logo.png", "logo 2x variants/logo@2x.png", "logo 3x variants/logo@3x.png",
            "mark 1x variants/mark.png", "mark 2x variants/mark@2x.png", "mark 3x variants/mark@3x.png",
            "photo 1x variants/photo.heic",
        ])
        #expect(plan.variants.filter { if case .rendered = $0.origin { true } else { false } }.count == 5)
        #expect(plan.problems.isEmpty, "drawing a vector larger is not upscaling")
        // Without renderers the same vectors are carried as they are.
        let carried = VariantPlanner(scales: [.x1, .x2, .x3]).plan([
            SourceImage(relativePath: "logo.svg", asset: AssetID("logo"), scale: .x1, declaredFormat: .svg),
        ], copyOnly: [AssetID("logo")])
        #expect(carried.variants.map(\.outputPath) == ["variants/logo.svg"])
    }

    @Test("a group for an idiom drawn at 2x at most (iPad, Mac, TV, watch) gets no 3x and no warning about it; a provided 3x is kept")
    func twoXIdiomsGetNoThreeX() {
        let plan = VariantPlanner(scales: [.x1, .x2, .x3]).plan([
            image("tv@2x.png", "tv~tv", .x2), image("pad@3x.png", "pad~ipad", .x3),
        ], scaleCeilings: [AssetID("tv~tv"): .x2, AssetID("pad~ipad"): .x2])
        #expect(plan.variants.map { "\($0.asset) \($0.scale)" } == ["pad~ipad 1x", "pad~ipad 2x", "pad~ipad 3x", "tv~tv 1x", "tv~tv 2x"])
        #expect(plan.problems.isEmpty, "\(plan.problems)")
    }

    @Test("without a downscale stage only provided scales are planned")
    func noGeneration() {
        let plan = VariantPlanner(scales: [.x1, .x2, .x3], generatesMissing: false).plan([image("a@3x.png", "a", .x3)])
        #expect(plan.variants.map(\.scale) == [.x3])
    }

    @Test("a scale provided twice keeps the first by path and warns")
    func duplicates() {
        let plan = VariantPlanner(scales: [.x2]).plan([
            SourceImage(relativePath: "a@2x.png", asset: AssetID("a"), scale: .x2, declaredFormat: .png),
            SourceImage(relativePath: "a@2x.jpg", asset: AssetID("a"), scale: .x2, declaredFormat: .jpeg),
        ])
        #expect(plan.variants.map(\.source.relativePath) == ["a@2x.jpg"])
        #expect(plan.problems.first?.reason == "2x is provided twice (also by a@2x.jpg); using a@2x.jpg")
    }

    @Test("variant sizes round to the nearest pixel and never reach zero")
    func geometry() {
        #expect(VariantGeometry.size(masterWidth: 100, masterHeight: 100, masterScale: 3, targetScale: 2) == (67, 67))
        #expect(VariantGeometry.size(masterWidth: 100, masterHeight: 100, masterScale: 3, targetScale: 1) == (33, 33))
        #expect(VariantGeometry.size(masterWidth: 1, masterHeight: 2, masterScale: 3, targetScale: 1) == (1, 1))
    }
}
