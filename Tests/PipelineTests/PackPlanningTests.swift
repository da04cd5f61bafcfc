@testable import Pipeline
import Slicing
import Testing
import TesseraCore

/// The planning side of the pack stage: what each bundle record says about its image.
@Suite("Pack stage: planning")
struct PackPlanningTests {
    private func row(_ appearance: Appearance, _ traits: VariantTraits, _ presentation: AssetPresentation? = nil) -> SliceRow {
        SliceRow(asset: "a", appearance: appearance, traits: traits, action: "use", path: "variants/a@3x.png", tags: [],
                 presentation: presentation, reason: "")
    }

    @Test("record traits list every key the row sets, sorted by key, and scale any for a single-scale entry")
    func recordTraits() {
        var wide = VariantTraits(idiom: "ipad", scale: .x2)
        wide.displayGamut = .displayP3
        wide.size = "83.5x83.5"
        var srgb = VariantTraits(idiom: "iphone", scale: .x3)
        srgb.displayGamut = .sRGB
        #expect(PackStage.recordTraits(of: row(.any, VariantTraits(scale: .x3)))
            == "appearance=any;idiom=universal;scale=3x")
        #expect(PackStage.recordTraits(of: row(.dark, srgb)) == "appearance=dark;idiom=iphone;scale=3x")
        #expect(PackStage.recordTraits(of: row(.tinted, wide, AssetPresentation(renderingIntent: "template",
                                                                                 preservesVectorRepresentation: true)))
            == "appearance=tinted;gamut=display-P3;idiom=ipad;preserves-vector=true;rendering-intent=template;scale=2x;size=83.5x83.5")
        #expect(PackStage.recordTraits(of: row(.any, VariantTraits(), AssetPresentation(renderingIntent: "original")))
            == "appearance=any;idiom=universal;rendering-intent=original;scale=any")
    }
}
