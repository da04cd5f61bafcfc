import Delivery
import Foundation
#if canImport(UIKit)
import UIKit
#endif

extension DeviceClass {
    /// This device's model identifier (`iPhone15,2`), read from `uname`; on the simulator, the
    /// simulated model. Nil where there is no Apple model identifier (Linux): pass a device explicitly.
    public static var currentModelIdentifier: String? {
        #if canImport(UIKit)
        if let simulated = ProcessInfo.processInfo.environment["SIMULATOR_MODEL_IDENTIFIER"] { return simulated }
        var system = utsname()
        uname(&system)
        let machine = withUnsafeBytes(of: &system.machine) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return machine.isEmpty ? nil : machine
        #else
        return nil
        #endif
    }

    #if canImport(UIKit)
    /// This device's class among the known devices, or the nearest one (`KnownDevices.resolve`), with
    /// the scale, gamut and idiom the current trait collection reports.
    @MainActor
    public static func current() throws(TesseraError) -> DeviceClass {
        var device = try KnownDevices.resolve(currentModelIdentifier ?? "").device
        let traits = UITraitCollection.current
        if traits.displayScale > 0 { device.scale = Int(traits.displayScale.rounded()) }
        device.displayGamut = traits.displayGamut == .P3 ? .displayP3 : .sRGB
        switch traits.userInterfaceIdiom {
        case .pad: device.idiom = "ipad"
        case .phone: device.idiom = "iphone"
        case .tv: device.idiom = "tv"
        default: break
        }
        return device
    }
    #endif
}
