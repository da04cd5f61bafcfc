import Delivery

/// Which devices an entry's `platform` and watch `subtype` are for.
enum DevicePlatformMatch {
    /// `ios` is for iPhones and iPads, `watchos`, `macos`, `tvos` and `visionos` for their own
    /// devices; an entry naming none is for every platform its idiom allows.
    static func matches(platform: String?, device: DeviceClass) -> Bool {
        guard let platform else { return true }
        return switch platform {
        case "ios": device.platform == .iOS || device.platform == .iPadOS
        case "watchos": device.platform == .watchOS
        case "macos": device.platform == .macOS
        case "tvos": device.platform == .tvOS
        case "visionos", "xros": device.platform == .visionOS
        default: false
        }
    }

    /// The entries a device keeps of those naming a watch case size (`subtype: 41mm`): a watch,
    /// for each `role`, the entries of the case size nearest its own (a 41 mm watch takes a
    /// set's 42mm notification icon when there is no 41mm one; a tie goes to the larger); other
    /// devices none. Entries with another subtype (`retina4`) or none are all kept.
    static func caseSized(_ entries: [CatalogEntry], device: DeviceClass) -> [CatalogEntry] {
        func millimetres(_ subtype: String?) -> Int? {
            guard let subtype, subtype.hasSuffix("mm") else { return nil }
            return Int(subtype.dropLast(2))
        }
        let plain = entries.filter { millimetres($0.traits.subtype) == nil }
        guard device.platform == .watchOS, let own = millimetres(device.watchCaseSize) else { return plain }
        let sized = Dictionary(grouping: entries.filter { millimetres($0.traits.subtype) != nil }) { $0.traits.role ?? "" }
        var kept = plain
        for (_, group) in sized {
            let sizes = Set(group.compactMap { millimetres($0.traits.subtype) })
            guard let best = sizes.min(by: { (abs($0 - own), -$0) < (abs($1 - own), -$1) }) else { continue }
            kept += group.filter { millimetres($0.traits.subtype) == best }
        }
        // In the set's own order, so ties between files still go to the first.
        return entries.filter { entry in kept.contains(entry) }
    }
}
