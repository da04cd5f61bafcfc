import Foundation
import TesseraCore

/// Real devices and the Android density buckets, with their traits (`docs/devices.md`).
///
/// GPU families follow the chip: A7 apple1, A8 apple2, A9/A10 apple3, A11 apple4, A12 apple5,
/// A13 apple6, A14/M1 apple7, A15/A16/M2 apple8, A17 Pro/A18/M3/M4 apple9, A19/M5 apple10.
/// Memory is the installed RAM in whole GB (0 for less than 1 GB).
public enum KnownDevices {
    /// `newestOS`: the last iOS the model runs (nil: the current one, iOS 26). Dark mode came with
    /// iOS 13, tinted icons with iOS 18.
    private static func iPhone(_ id: String, _ name: String, scale: Int, memory: Int, family: String, p3: Bool,
                               newestOS: Int? = nil) -> DeviceClass {
        DeviceClass(id: id, name: name, platform: .iOS, idiom: "iphone", scale: scale, memoryGB: memory,
                    graphicsFamily: family, displayGamut: p3 ? .displayP3 : .sRGB, supportsDarkMode: (newestOS ?? 26) >= 13,
                    supportsTintedIcons: (newestOS ?? 26) >= 18, newestOS: newestOS)
    }

    private static func iPad(_ id: String, _ name: String, memory: Int, family: String, p3: Bool,
                             newestOS: Int? = nil) -> DeviceClass {
        DeviceClass(id: id, name: name, platform: .iPadOS, idiom: "ipad", scale: 2, memoryGB: memory,
                    graphicsFamily: family, displayGamut: p3 ? .displayP3 : .sRGB, supportsDarkMode: true,
                    supportsTintedIcons: (newestOS ?? 26) >= 18, newestOS: newestOS)
    }

    private static func mac(_ id: String, _ name: String, memory: Int, family: String) -> DeviceClass {
        DeviceClass(id: id, name: name, platform: .macOS, idiom: "mac", scale: 2, memoryGB: memory,
                    graphicsFamily: family, displayGamut: .displayP3, supportsDarkMode: true)
    }

    /// watchOS has one (dark) appearance; GPU families of the S-series chips are not published.
    private static func watch(_ id: String, _ name: String, memory: Int, width: Int) -> DeviceClass {
        DeviceClass(id: id, name: name, platform: .watchOS, idiom: "watch", scale: 2, memoryGB: memory,
                    graphicsFamily: nil, displayGamut: .sRGB, supportsDarkMode: false, screenWidthPoints: width)
    }

    private static func android(_ bucket: String, dpi: Int) -> DeviceClass {
        DeviceClass(id: "android-\(bucket)", name: "Android \(bucket) (\(dpi) dpi)", platform: .android,
                    idiom: "phone", scale: max(1, Int((Double(dpi) / 160).rounded())), densityDPI: dpi, memoryGB: 4,
                    graphicsFamily: nil, displayGamut: .sRGB, supportsDarkMode: true)
    }

    public static let all: [DeviceClass] = [
        // A 1x iPhone (256 MB, PowerVR SGX: no Metal family): the 1x-class device.
        DeviceClass(id: "iPhone2,1", name: "iPhone 3GS", platform: .iOS, idiom: "iphone", scale: 1, memoryGB: 0,
                    graphicsFamily: nil, displayGamut: .sRGB, supportsDarkMode: false, newestOS: 6),
        iPhone("iPhone6,1", "iPhone 5s", scale: 2, memory: 1, family: "apple1", p3: false, newestOS: 12),
        iPhone("iPhone7,1", "iPhone 6 Plus", scale: 3, memory: 1, family: "apple2", p3: false, newestOS: 12),
        iPhone("iPhone8,1", "iPhone 6s", scale: 2, memory: 2, family: "apple3", p3: false, newestOS: 15),
        iPhone("iPhone10,1", "iPhone 8", scale: 2, memory: 2, family: "apple4", p3: true, newestOS: 16),
        // iOS 18, which shows tinted icons, starts at the A12 (iPhone XS); iOS 26 at the A13.
        iPhone("iPhone11,2", "iPhone XS", scale: 3, memory: 4, family: "apple5", p3: true, newestOS: 18),
        iPhone("iPhone12,1", "iPhone 11", scale: 2, memory: 4, family: "apple6", p3: true),
        iPhone("iPhone12,8", "iPhone SE (2nd generation)", scale: 2, memory: 3, family: "apple6", p3: true),
        iPhone("iPhone13,2", "iPhone 12", scale: 3, memory: 4, family: "apple7", p3: true),
        iPhone("iPhone14,5", "iPhone 13", scale: 3, memory: 4, family: "apple8", p3: true),
        iPhone("iPhone15,2", "iPhone 14 Pro", scale: 3, memory: 6, family: "apple8", p3: true),
        iPhone("iPhone15,4", "iPhone 15", scale: 3, memory: 6, family: "apple8", p3: true),
        iPhone("iPhone16,1", "iPhone 15 Pro", scale: 3, memory: 8, family: "apple9", p3: true),
        iPhone("iPhone17,1", "iPhone 16 Pro", scale: 3, memory: 8, family: "apple9", p3: true),
        iPhone("iPhone17,3", "iPhone 16", scale: 3, memory: 8, family: "apple9", p3: true),
        iPhone("iPhone17,5", "iPhone 16e", scale: 3, memory: 8, family: "apple9", p3: true),
        iPhone("iPhone18,1", "iPhone 17 Pro", scale: 3, memory: 12, family: "apple10", p3: true),
        iPhone("iPhone18,2", "iPhone 17 Pro Max", scale: 3, memory: 12, family: "apple10", p3: true),
        iPhone("iPhone18,3", "iPhone 17", scale: 3, memory: 8, family: "apple10", p3: true),
        iPhone("iPhone18,4", "iPhone Air", scale: 3, memory: 12, family: "apple10", p3: true),
        // iPadOS 18 does not run on the 6th-generation iPad.
        iPad("iPad7,5", "iPad (6th generation)", memory: 2, family: "apple3", p3: false, newestOS: 17),
        iPad("iPad12,1", "iPad (9th generation)", memory: 3, family: "apple6", p3: false),
        iPad("iPad13,18", "iPad (10th generation)", memory: 4, family: "apple7", p3: false),
        iPad("iPad15,7", "iPad (A16)", memory: 6, family: "apple8", p3: false),
        iPad("iPad14,1", "iPad mini (6th generation)", memory: 4, family: "apple8", p3: true),
        iPad("iPad16,1", "iPad mini (A17 Pro)", memory: 8, family: "apple9", p3: true),
        iPad("iPad14,8", "iPad Air 11-inch (M2)", memory: 8, family: "apple8", p3: true),
        iPad("iPad15,3", "iPad Air 11-inch (M3)", memory: 8, family: "apple9", p3: true),
        iPad("iPad13,4", "iPad Pro 11-inch (3rd generation)", memory: 8, family: "apple7", p3: true),
        iPad("iPad16,3", "iPad Pro 11-inch (M4)", memory: 8, family: "apple9", p3: true),
        iPad("iPad17,1", "iPad Pro 11-inch (M5)", memory: 12, family: "apple10", p3: true),
        mac("MacBookAir10,1", "MacBook Air (M1, 2020)", memory: 8, family: "apple7"),
        mac("Mac14,2", "MacBook Air (M2, 2022)", memory: 8, family: "apple8"),
        mac("Mac15,12", "MacBook Air 13-inch (M3, 2024)", memory: 8, family: "apple9"),
        mac("Mac16,12", "MacBook Air 13-inch (M4, 2025)", memory: 16, family: "apple9"),
        watch("Watch6,1", "Apple Watch Series 6 (40mm)", memory: 1, width: 162),
        watch("Watch6,2", "Apple Watch Series 6 (44mm)", memory: 1, width: 184),
        watch("Watch7,1", "Apple Watch Series 9 (41mm)", memory: 2, width: 176),
        watch("Watch7,2", "Apple Watch Series 9 (45mm)", memory: 2, width: 198),
        watch("Watch6,18", "Apple Watch Ultra", memory: 1, width: 205),
        watch("Watch7,5", "Apple Watch Ultra 2", memory: 2, width: 205),
        watch("Watch7,8", "Apple Watch Series 10 (42mm)", memory: 2, width: 187),
        watch("Watch7,9", "Apple Watch Series 10 (46mm)", memory: 2, width: 208),
        // Apple TV 4K draws its 1920×1080-point interface at 2x on a 4K display.
        DeviceClass(id: "AppleTV11,1", name: "Apple TV 4K (2nd generation)", platform: .tvOS, idiom: "tv", scale: 2,
                    memoryGB: 3, graphicsFamily: "apple5", displayGamut: .displayP3, supportsDarkMode: true),
        DeviceClass(id: "AppleTV14,1", name: "Apple TV 4K (3rd generation)", platform: .tvOS, idiom: "tv", scale: 2,
                    memoryGB: 4, graphicsFamily: "apple8", displayGamut: .displayP3, supportsDarkMode: true),
        DeviceClass(id: "RealityDevice14,1", name: "Apple Vision Pro", platform: .visionOS, idiom: "vision", scale: 2,
                    memoryGB: 16, graphicsFamily: "apple8", displayGamut: .displayP3, supportsDarkMode: false),
        android("ldpi", dpi: 120), android("mdpi", dpi: 160), android("tvdpi", dpi: 213), android("hdpi", dpi: 240),
        android("xhdpi", dpi: 320), android("xxhdpi", dpi: 480), android("xxxhdpi", dpi: 640),
    ]

    /// The device a person or a script names: its identifier in any case (`iphone16,1`), or its
    /// name as Apple writes it, in any case and spacing (`iPhone 15 Pro`); nil when neither.
    /// Every command and the pipeline file read device names through here (issue 40).
    public static func canonicalIdentifier(_ text: String) -> String? {
        if all.contains(where: { $0.id == text }) { return text }
        let lowered = text.lowercased()
        if let byID = all.first(where: { $0.id.lowercased() == lowered }) { return byID.id }
        let spoken = lowered.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return all.first { $0.name.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ") == spoken }?.id
    }

    /// The device with this identifier or name (`canonicalIdentifier`); the error lists the
    /// closest known identifiers first.
    public static func device(_ id: String) throws(TesseraError) -> DeviceClass {
        if let canonical = canonicalIdentifier(id), let device = all.first(where: { $0.id == canonical }) { return device }
        let closest = EditDistance.closest(to: id, in: all.map(\.id)).prefix(5)
        throw TesseraError(.configuration, origin: .slice,
                           reason: "unknown device '\(id)'; closest known: \(closest.joined(separator: ", "))")
    }

    /// A device found for an identifier, and whether it is that device or the nearest built class.
    public struct Match: Sendable, Hashable {
        public var device: DeviceClass
        /// False when `device` stands in for an identifier Tessera does not know.
        public var isExact: Bool
        /// For a stand-in, a sentence saying so (`iPhone19,1 is not a known device; ...`).
        public var note: String?
    }

    /// The device with this identifier among `candidates` (every known device unless given: pass
    /// the classes a build made slices for), or a stand-in with a note saying so. The stand-in is
    /// of the same family (`iPhone`, `iPad`, `Watch`...): for a known device, one with the same
    /// idiom and scale when there is one; then the newest at or before the identifier (the oldest
    /// when it is older than all). A plausible identifier Tessera does not know (`iPhone19,1`: a
    /// family, a generation and a model) is handled the same way. Nil when nothing fits.
    public static func nearest(to id: String, among candidates: [DeviceClass] = all) -> Match? {
        if let device = candidates.first(where: { $0.id == id }) { return Match(device: device, isExact: true, note: nil) }
        if let dpi = androidDensity(of: id) { return nearestDensity(id, dpi: dpi, among: candidates) }
        guard let wanted = ModelIdentifier(id) else { return nil }
        var family = candidates.compactMap { device in ModelIdentifier(device.id).map { ($0, device) } }
            .filter { $0.0.family == wanted.family }
            .sorted { $0.0 < $1.0 }
        let known = all.first { $0.id == id }
        if let known {
            let alike = family.filter { $0.1.idiom == known.idiom && $0.1.scale == known.scale }
            if !alike.isEmpty { family = alike }
        }
        guard let chosen = family.last(where: { $0.0 < wanted }) ?? family.first else { return nil }
        let what = known.map { "\(id) (\($0.name)) has no built class" } ?? "\(id) is not a known device"
        let how = chosen.0 < wanted ? "the newest \(wanted.family) before it" : "the oldest \(wanted.family)"
        return Match(device: chosen.1, isExact: false,
                     note: "\(what); using the nearest built class \(chosen.1.id) (\(chosen.1.name)), \(how)")
    }

    /// The density an Android class id names: `android-420dpi` → 420, `android-xxhdpi` → 480.
    static func androidDensity(of id: String) -> Int? {
        guard id.hasPrefix("android-") else { return nil }
        if let known = all.first(where: { $0.id == id }) { return known.densityDPI }
        let rest = id.dropFirst("android-".count)
        guard rest.hasSuffix("dpi"), let dpi = Int(rest.dropLast(3)), dpi > 0 else { return nil }
        return dpi
    }

    /// The built Android class whose density Android would draw on a `dpi` device
    /// (`AndroidDensityRule`, the rule bundletool builds its density splits by).
    private static func nearestDensity(_ id: String, dpi: Int, among candidates: [DeviceClass]) -> Match? {
        let built = candidates.filter { $0.platform == .android && $0.densityDPI != nil }
        guard let density = AndroidDensityRule.best(of: built.map { $0.densityDPI! }, screen: dpi),
              let best = built.first(where: { $0.densityDPI == density }) else { return nil }
        return Match(device: best, isExact: false,
                     note: "\(id) has no built class; using \(best.id) (\(best.densityDPI!) dpi), the density Google Play would serve a \(dpi) dpi device")
    }

    /// `device(_:)`, falling back to `nearest(to:)` for plausible identifiers Tessera does not know.
    public static func resolve(_ id: String) throws(TesseraError) -> Match {
        if let match = nearest(to: id) { return match }
        return Match(device: try device(id), isExact: true, note: nil)
    }

    /// Reads a device spec: Tessera's own shape (the fields of `DeviceClass`), or bundletool's
    /// Android device spec (`screenDensity`, `sdkVersion`, `supportedAbis`...).
    public static func device(specAt path: String) throws(TesseraError) -> DeviceClass {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError(.io, file: path, origin: .slice, reason: "cannot read the device spec")
        }
        if let device = try? JSONDecoder().decode(DeviceClass.self, from: data) { return device }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TesseraError(.invalidInput, file: path, origin: .slice, reason: "not a JSON object")
        }
        guard let density = object["screenDensity"] as? Int, density > 0 else {
            throw TesseraError(.invalidInput, file: path, origin: .slice,
                               reason: "neither a Tessera device class nor a bundletool spec with 'screenDensity'")
        }
        return DeviceClass(id: "android-\(density)dpi", name: "Android \(density) dpi (device spec)", platform: .android,
                           idiom: "phone", scale: max(1, Int((Double(density) / 160).rounded())), densityDPI: density,
                           memoryGB: 4, graphicsFamily: nil, displayGamut: .sRGB, supportsDarkMode: true,
                           androidAPILevel: object["sdkVersion"] as? Int)
    }
}
