import Delivery
import Testing
import TesseraCore

@Suite("Known devices")
struct KnownDevicesTests {
    @Test("current Apple devices on every platform, identifiers unique")
    func coverage() throws {
        let ids = KnownDevices.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(Set(KnownDevices.all.map(\.platform)) == Set(DeviceClass.Platform.allCases))
        for id in ["iPhone18,1", "iPhone18,2", "iPhone18,3", "iPhone18,4", "iPad17,1", "Mac16,12", "Watch7,9",
                   "AppleTV14,1", "RealityDevice14,1"] {
            #expect(ids.contains(id), "\(id)")
        }
        #expect(try KnownDevices.device("Mac16,12").platform == .macOS)
        #expect(try KnownDevices.device("RealityDevice14,1").platform.rawValue == "visionos")
    }

    @Test("an unknown but plausible identifier falls back to the nearest built class, and says so")
    func nearest() throws {
        let newer = try #require(KnownDevices.nearest(to: "iPhone19,1"))
        #expect(!newer.isExact && newer.device.id == "iPhone18,4")
        #expect(newer.note == "iPhone19,1 is not a known device; using the nearest built class iPhone18,4 (iPhone Air), "
            + "the newest iPhone before it")
        #expect(KnownDevices.nearest(to: "iPad16,2")?.device.id == "iPad16,1")
        #expect(KnownDevices.nearest(to: "Watch9,1")?.device.id == "Watch7,9")
        #expect(KnownDevices.nearest(to: "iPhone1,1")?.device.id == "iPhone2,1")
        #expect(KnownDevices.nearest(to: "iPhone18,3")?.isExact == true)
        #expect(KnownDevices.nearest(to: "Pixel 9") == nil)
        #expect(KnownDevices.nearest(to: "Toaster3,1") == nil)
        #expect(try KnownDevices.resolve("iPhone20,2").device.id == "iPhone18,4")
        // Among the classes a build made: a known device falls back to one of its idiom and scale.
        let built = try ["iPhone12,1", "iPhone15,2", "iPad12,1"].map { try KnownDevices.device($0) }
        let pro = try #require(KnownDevices.nearest(to: "iPhone17,1", among: built))
        #expect(pro.device.id == "iPhone15,2")
        #expect(pro.note == "iPhone17,1 (iPhone 16 Pro) has no built class; using the nearest built class iPhone15,2 "
            + "(iPhone 14 Pro), the newest iPhone before it")
        #expect(KnownDevices.nearest(to: "iPhone10,1", among: built)?.device.id == "iPhone12,1")  // 2x: the oldest 2x iPhone
        #expect(KnownDevices.nearest(to: "Watch7,9", among: built) == nil)
    }

    @Test("a device is named by its identifier in any case or by Apple's name in any case and spacing; anything else is unknown")
    func spokenNames() throws {
        #expect(KnownDevices.canonicalIdentifier("iPhone16,1") == "iPhone16,1")
        #expect(KnownDevices.canonicalIdentifier("iphone16,1") == "iPhone16,1")
        #expect(KnownDevices.canonicalIdentifier("iPhone 15 Pro") == "iPhone16,1")
        #expect(KnownDevices.canonicalIdentifier("  IPHONE   15 pro ") == "iPhone16,1")
        #expect(KnownDevices.canonicalIdentifier("iPhone 99") == nil)
        #expect(try KnownDevices.device("ipad12,1").id == "iPad12,1")
        #expect(throws: TesseraError.self) { try KnownDevices.device("Nokia 3310") }
    }
}
