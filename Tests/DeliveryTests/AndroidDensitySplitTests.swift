import Delivery
import Testing

/// Google Play's density splits as bundletool builds them (`ScreenDensitySelector`,
/// `ScreenDensityResourcesSplitter`, bundletool 1.18.1): the screens each split serves, and the
/// densities of a resource each holds. The expected values are bundletool's own test cases
/// (`ScreenDensitySelectorTest`, `ScreenDensityResourcesSplitterTest`) where they use the seven
/// default buckets, and the comparator worked by hand elsewhere.
@Suite("Play's density splits")
struct AndroidDensitySplitTests {
    private func split(_ alias: String) throws -> AndroidDensitySplit {
        try #require(AndroidDensitySplit.all.first { $0.alias == alias })
    }

    @Test("each split serves the screens between its turning points with its neighbours (bundletool's getDpiRange)",
          arguments: [
            ("ldpi", nil, 131), ("mdpi", 132, 175), ("tvdpi", 176, 221), ("hdpi", 222, 263),
            ("xhdpi", 264, 363), ("xxhdpi", 364, 526), ("xxxhdpi", 527, nil),
          ] as [(String, Int?, Int?)])
    func ranges(alias: String, lowest: Int?, highest: Int?) throws {
        let split = try split(alias)
        #expect(split.lowestScreen == lowest && split.highestScreen == highest)
        // Every screen is served by exactly one split: the one whose density Android's rule picks
        // among the seven (bundletool's ScreenDensityMatcher).
        for screen in [lowest, highest].compactMap({ $0 }) {
            let served = AndroidDensitySplit.all.filter { $0.serves(screen: screen) }.map(\.alias)
            #expect(served == [alias], "\(screen) dpi")
            let picked = AndroidDensityRule.best(of: AndroidDensitySplit.all.map(\.dpi), screen: screen)
            #expect(picked == split.dpi, "\(screen) dpi")
        }
    }

    @Test("a split holds every density a screen of its range draws",
          arguments: [
            // bundletool's twoDensitiesInSameBucket: xxhdpi, 560 and xxxhdpi → the xxxhdpi split
            // holds 560 and 640 (a 527 dpi screen draws 560).
            ("xxxhdpi", [480, 560, 640], [560, 640]),
            // …and the xxhdpi split 480 and 560 (its highest screen, 526 dpi, draws 560).
            ("xxhdpi", [480, 560, 640], [480, 560]),
            // bundletool's complexDensitySplit: hdpi and xhdpi; ldpi…hdpi splits hold hdpi, the rest xhdpi.
            ("ldpi", [240, 320], [240]), ("tvdpi", [240, 320], [240]), ("hdpi", [240, 320], [240]),
            ("xhdpi", [240, 320], [320]), ("xxxhdpi", [240, 320], [320]),
            // bundletool's densityBucket_neighbouringResources_edgeCase, with the seven buckets:
            // a 527 dpi screen draws 512 over 560, so xxxhdpi holds 512, 560, 640; xxhdpi (from 364) 512 alone.
            ("xxxhdpi", [160, 512, 560, 640], [512, 560, 640]), ("xxhdpi", [160, 512, 560, 640], [512]),
            // Gaps a real app leaves (mdpi, xhdpi, xxxhdpi): a 364 dpi screen draws xhdpi, 526 draws xxxhdpi.
            ("xxhdpi", [160, 320, 640], [320, 640]), ("hdpi", [160, 320, 640], [320]),
            ("ldpi", [160, 320, 640], [160]), ("mdpi", [160, 320, 640], [160]),
            // Files at the buckets' own densities: each split holds its own alone, its range ending
            // where the next density takes over ((2·320 − 364)·480 = 132,480 ≤ 364²).
            ("xxhdpi", [320, 480], [480]), ("xhdpi", [320, 480], [320]),
          ] as [(String, [Int], [Int])])
    func reachable(alias: String, densities: [Int], held: [Int]) throws {
        #expect(try split(alias).reachable(densities) == held)
    }

    @Test("what a split holds is exactly what the screens it serves draw, screen by screen")
    func reachableIsWhatScreensDraw() throws {
        let resources: [[Int]] = [[120, 480], [160, 320, 640], [213, 480], [240, 320, 480, 640], [160, 512, 560, 640],
                                  [100, 700], [320], [140, 150, 400, 420, 600]]
        for densities in resources {
            for split in AndroidDensitySplit.all {
                let screens = (1...1200).filter { split.serves(screen: $0) }
                let drawn = Set(screens.compactMap { AndroidDensityRule.best(of: densities, screen: $0) })
                #expect(split.reachable(densities) == drawn.sorted(), "\(split.alias) \(densities)")
            }
        }
    }

    @Test("anydpi beats every density on every screen (DENSITY_ANY), and a split holds it alone")
    func anyDensity() throws {
        let any = AndroidDensityRule.anyDensity
        for screen in [120, 213, 420, 640] {
            #expect(AndroidDensityRule.best(of: [160, 320, any, 640], screen: screen) == any)
        }
        #expect(AndroidDensityRule.prefers(any, over: 640, screen: 640))
        #expect(!AndroidDensityRule.prefers(640, over: any, screen: 640))
        #expect(try split("xxhdpi").reachable([320, any, 640]) == [any])
    }

    @Test("the built-in buckets are splits; a device spec's single screen is not")
    func buckets() throws {
        #expect(AndroidDensitySplit(serving: try KnownDevices.device("android-xxhdpi"))?.screensDescription == "364–526 dpi")
        #expect(AndroidDensitySplit(serving: try KnownDevices.device("android-ldpi"))?.screensDescription == "≤ 131 dpi")
        #expect(AndroidDensitySplit(serving: try KnownDevices.device("iPhone15,2")) == nil)
        let spec = DeviceClass(id: "android-480dpi", name: "spec", platform: .android, idiom: "phone", scale: 3,
                               densityDPI: 480, memoryGB: 4, graphicsFamily: nil, displayGamut: .sRGB, supportsDarkMode: true)
        #expect(AndroidDensitySplit(serving: spec) == nil)
    }
}
