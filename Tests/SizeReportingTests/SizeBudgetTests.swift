import Delivery
import SizeReporting
import Testing
import TesseraCore

/// Size budgets on their own: growth limits as people write them, and budgets that cannot mean
/// what they say refused before any size is judged.
@Suite("Size budgets")
struct SizeBudgetTests {
    @Test("growth limits: a share (5%, 0.5%) or a size (200KB, 0); a share of nothing allows nothing to be said")
    func growthLimits() {
        #expect(GrowthLimit(parsing: "5%") == .percent(5))
        #expect(GrowthLimit(parsing: " 0.5 % ") == .percent(0.5))
        #expect(GrowthLimit(parsing: "200KB") == .bytes(200_000))
        #expect(GrowthLimit(parsing: "0") == .bytes(0))
        #expect(GrowthLimit(parsing: "-1%") == nil && GrowthLimit(parsing: "lots") == nil && GrowthLimit(parsing: "nan%") == nil)
        #expect(GrowthLimit.percent(5).allowance(before: 1_000) == 50)
        #expect(GrowthLimit.percent(5).allowance(before: 0) == nil)
        #expect(GrowthLimit.bytes(10).allowance(before: 0) == 10)
        #expect(GrowthLimit.percent(2.5).description == "2.5%" && GrowthLimit.bytes(1_500).description == "2 KB" && GrowthLimit.bytes(612).description == "612 B")
    }

    @Test("a tag limit naming no tag of the build is refused, with the tags it has and the closest; growth limits need a previous build")
    func budgetsThatCannotMeanAnything() {
        let manifest = Manifest(pipeline: "p", assets: [AssetEntry(name: AssetID("star"), variants: [], tags: ["Star", "Moon"])])
        let misspelt = SizeBudget(maxTag: ["Stra": 1_000])
        let error = #expect(throws: TesseraError.self) { try misspelt.check(against: manifest, hasPrevious: false) }
        #expect(error?.reason.contains("--max-tag names a tag no asset of this build has: Stra; its tags are Moon, Star (closest to 'Stra': Star") == true,
                "\(String(describing: error))")
        let growth = SizeBudget(maxInstallGrowth: .percent(1))
        #expect(throws: TesseraError.self) { try growth.check(against: manifest, hasPrevious: false) }
        #expect(throws: Never.self) { try growth.check(against: manifest, hasPrevious: true) }
        #expect(throws: Never.self) { try SizeBudget(maxTag: ["Star": 1]).check(against: manifest, hasPrevious: false) }
    }
}
