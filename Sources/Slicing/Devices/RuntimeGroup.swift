import Delivery

/// The traits an app picks among at run time, not the App Store: layout direction (the user's
/// language), width and height class (rotation, split view). Entries that differ in them are
/// separate groups, each thinned on its own, and every group ships (`docs/catalog-conformance.md`).
struct RuntimeGroup: Hashable, Comparable {
    let layoutDirection: LayoutDirection?
    let widthClass: SizeClass?
    let heightClass: SizeClass?

    init(_ entry: CatalogEntry) {
        layoutDirection = entry.traits.layoutDirection
        widthClass = entry.traits.widthClass
        heightClass = entry.traits.heightClass
    }

    /// What the slice report says of the group; nothing for the trait-free group.
    var reasons: [String] {
        var said: [String] = []
        if let layoutDirection {
            said.append("\(layoutDirection.rawValue) (kept: the app picks its layout direction at run time)")
        }
        if widthClass != nil || heightClass != nil {
            said.append("size class \(widthClass?.rawValue ?? "any") width, \(heightClass?.rawValue ?? "any") height")
        }
        return said
    }

    static func < (lhs: RuntimeGroup, rhs: RuntimeGroup) -> Bool {
        (lhs.layoutDirection?.rawValue ?? "", lhs.widthClass?.rawValue ?? "", lhs.heightClass?.rawValue ?? "")
            < (rhs.layoutDirection?.rawValue ?? "", rhs.widthClass?.rawValue ?? "", rhs.heightClass?.rawValue ?? "")
    }

    /// Whether `device`'s OS can show `appearance`: light, dark and increased contrast from iOS 13
    /// (the devices with a dark mode), dark and tinted app icons from iOS 18.
    static func shows(_ appearance: Appearance, on device: DeviceClass, isIcon: Bool) -> Bool {
        switch appearance {
        case .any: true
        case .dark: isIcon ? device.supportsTintedIcons == true : device.supportsDarkMode
        case .tinted: device.supportsTintedIcons == true
        case .light, .highContrast, .lightHighContrast, .darkHighContrast: !isIcon && device.supportsDarkMode
        default: false
        }
    }
}
