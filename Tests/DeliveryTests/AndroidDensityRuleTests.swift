import Delivery
import Testing

/// Android's density choice (AOSP `ResTable_config::isBetterThan`), pinned on a table of (screen
/// dpi, densities a resource has) → the density drawn, worked out by that comparator for every
/// density bucket a device reports and the gaps real apps leave.
@Suite("Android's density rule")
struct AndroidDensityRuleTests {
    static let every = [120, 160, 240, 320, 480, 640]
    static let gaps = [160, 320, 640]              // mdpi, xhdpi, xxxhdpi: no hdpi, no xxhdpi
    static let ends = [120, 480]                   // ldpi and xxhdpi only

    @Test("the table: every bucket and the gaps between them",
          arguments: [
            // Every bucket present: exact densities; tvdpi (213) draws hdpi, 420 and 560 the next above.
            (120, every, 120), (160, every, 160), (213, every, 240), (240, every, 240), (320, every, 320),
            (420, every, 480), (480, every, 480), (560, every, 640), (640, every, 640),
            // Gaps: below every density the lowest; 213 and 240 draw xhdpi ((2·160 − d)·320 ≤ d²),
            // 420, 480 and 560 draw xxxhdpi.
            (120, gaps, 160), (160, gaps, 160), (213, gaps, 320), (240, gaps, 320), (320, gaps, 320),
            (420, gaps, 640), (480, gaps, 640), (560, gaps, 640), (640, gaps, 640),
            // ldpi and xxhdpi alone: an mdpi screen scales ldpi up ((240 − 160)·480 > 160²), hdpi and
            // tvdpi scale xxhdpi down.
            (120, ends, 120), (160, ends, 120), (213, ends, 480), (240, ends, 480), (320, ends, 480),
            (420, ends, 480), (640, ends, 480),
          ] as [(Int, [Int], Int)])
    func table(screen: Int, densities: [Int], drawn: Int) {
        #expect(AndroidDensityRule.best(of: densities, screen: screen) == drawn)
        // The order the resource lists its densities in changes nothing.
        #expect(AndroidDensityRule.best(of: densities.reversed(), screen: screen) == drawn)
    }

    @Test("a density is never preferred over itself, and nothing is chosen from nothing")
    func edges() {
        #expect(!AndroidDensityRule.prefers(320, over: 320, screen: 400))
        #expect(AndroidDensityRule.best(of: [], screen: 320) == nil)
        #expect(AndroidDensityRule.best(of: [213], screen: 640) == 213)
    }

    @Test("tessera query answers a device spec with the class Android's rule picks among the built ones")
    func nearestBuiltClass() throws {
        let built = try ["android-mdpi", "android-xhdpi", "android-xxxhdpi"].map { try KnownDevices.device($0) }
        #expect(KnownDevices.nearest(to: "android-213dpi", among: built)?.device.id == "android-xhdpi")
        #expect(KnownDevices.nearest(to: "android-420dpi", among: built)?.device.id == "android-xxxhdpi")
        #expect(KnownDevices.nearest(to: "android-120dpi", among: built)?.device.id == "android-mdpi")
    }
}
