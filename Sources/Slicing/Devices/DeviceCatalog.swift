import Foundation
import TesseraCore

/// Real devices and the Android density buckets, with their traits (`docs/devices.md`).
///
/// GPU families follow the chip: A7 apple1, A8 apple2, A9/A10 apple3, A11 apple4, A12 apple5,
/// A13 apple6, A14/M1 apple7, A15/A16/M2 apple8, A17 Pro/M3 apple9. Memory is the installed RAM
/// in whole GB (0 for less than 1 GB).
public enum DeviceCatalog {
    private static func iPhone(_ id: String, _ name: String, scale: Int, memory: Int, family: String, p3: Bool,
                               dark: Bool = true) -> DeviceClass {
        DeviceClass(id: id, name: name, platform: .iOS, idiom: "iphone", scale: scale, memoryGB: memory,
                    graphicsFamily: family, displayGamut: p3 ? "display-P3" : "sRGB", supportsDarkMode: dark)
    }

    private static func iPad(_ id: String, _ name: String, memory: Int, family: String, p3: Bool) -> DeviceClass {
        DeviceClass(id: id, name: name, platform: .iPadOS, idiom: "ipad", scale: 2, memoryGB: memory,
                    graphicsFamily: family, displayGamut: p3 ? "display-P3" : "sRGB", supportsDarkMode: true)
    }

    private static func android(_ bucket: String, dpi: Int) -> DeviceClass {
        DeviceClass(id: "android-\(bucket)", name: "Android \(bucket) (\(dpi) dpi)", platform: .android,
                    idiom: "phone", scale: max(1, Int((Double(dpi) / 160).rounded())), densityDPI: dpi, memoryGB: 4,
                    graphicsFamily: nil, displayGamut: "sRGB", supportsDarkMode: true)
    }

    public static let all: [DeviceClass] = [
        // A 1x iPhone (256 MB, PowerVR SGX: no Metal family): the 1x-class device.
        DeviceClass(id: "iPhone2,1", name: "iPhone 3GS", platform: .iOS, idiom: "iphone", scale: 1, memoryGB: 0,
                    graphicsFamily: nil, displayGamut: "sRGB", supportsDarkMode: false),
        iPhone("iPhone6,1", "iPhone 5s", scale: 2, memory: 1, family: "apple1", p3: false, dark: false),
        iPhone("iPhone7,1", "iPhone 6 Plus", scale: 3, memory: 1, family: "apple2", p3: false, dark: false),
        iPhone("iPhone8,1", "iPhone 6s", scale: 2, memory: 2, family: "apple3", p3: false),
        iPhone("iPhone10,1", "iPhone 8", scale: 2, memory: 2, family: "apple4", p3: true),
        iPhone("iPhone11,2", "iPhone XS", scale: 3, memory: 4, family: "apple5", p3: true),
        iPhone("iPhone12,1", "iPhone 11", scale: 2, memory: 4, family: "apple6", p3: true),
        iPhone("iPhone12,8", "iPhone SE (2nd generation)", scale: 2, memory: 3, family: "apple6", p3: true),
        iPhone("iPhone13,2", "iPhone 12", scale: 3, memory: 4, family: "apple7", p3: true),
        iPhone("iPhone14,5", "iPhone 13", scale: 3, memory: 4, family: "apple8", p3: true),
        iPhone("iPhone15,2", "iPhone 14 Pro", scale: 3, memory: 6, family: "apple8", p3: true),
        iPhone("iPhone16,1", "iPhone 15 Pro", scale: 3, memory: 8, family: "apple9", p3: true),
        iPad("iPad7,5", "iPad (6th generation)", memory: 2, family: "apple3", p3: false),
        iPad("iPad12,1", "iPad (9th generation)", memory: 3, family: "apple6", p3: false),
        iPad("iPad14,1", "iPad mini (6th generation)", memory: 4, family: "apple8", p3: true),
        iPad("iPad13,4", "iPad Pro 11-inch (3rd generation)", memory: 8, family: "apple7", p3: true),
        DeviceClass(id: "AppleTV11,1", name: "Apple TV 4K (2nd generation)", platform: .tvOS, idiom: "tv", scale: 1,
                    memoryGB: 3, graphicsFamily: "apple5", displayGamut: "display-P3", supportsDarkMode: true),
        android("ldpi", dpi: 120), android("mdpi", dpi: 160), android("tvdpi", dpi: 213), android("hdpi", dpi: 240),
        android("xhdpi", dpi: 320), android("xxhdpi", dpi: 480), android("xxxhdpi", dpi: 640),
    ]

    /// The device with this identifier; the error lists the closest known identifiers first.
    public static func device(_ id: String) throws(TesseraError) -> DeviceClass {
        if let device = all.first(where: { $0.id == id }) { return device }
        let closest = EditDistance.closest(to: id, in: all.map(\.id)).prefix(5)
        throw TesseraError(.configuration, stage: "slice",
                           reason: "unknown device '\(id)'; closest known: \(closest.joined(separator: ", "))")
    }

    /// Reads a device spec: Tessera's own shape (the fields of `DeviceClass`), or bundletool's
    /// Android device spec (`screenDensity`, `sdkVersion`, `supportedAbis`...).
    public static func device(specAt path: String) throws(TesseraError) -> DeviceClass {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.io, file: path, stage: "slice", reason: "cannot read the device spec")
        }
        if let device = try? JSONDecoder().decode(DeviceClass.self, from: data) { return device }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TesseraError(.invalidInput, file: path, stage: "slice", reason: "not a JSON object")
        }
        guard let density = object["screenDensity"] as? Int, density > 0 else {
            throw TesseraError(.invalidInput, file: path, stage: "slice",
                               reason: "neither a Tessera device class nor a bundletool spec with 'screenDensity'")
        }
        return DeviceClass(id: "android-\(density)dpi", name: "Android \(density) dpi (device spec)", platform: .android,
                           idiom: "phone", scale: max(1, Int((Double(density) / 160).rounded())), densityDPI: density,
                           memoryGB: 4, graphicsFamily: nil, displayGamut: "sRGB", supportsDarkMode: true)
    }
}
