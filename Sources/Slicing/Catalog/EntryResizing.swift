import Delivery

/// An image entry's `resizing` (Xcode's image slicing), typed: `mode` (`3-part-horizontal`,
/// `3-part-vertical`, `9-part`), `center` (`mode`: `tile` or `stretch`, `width`, `height`) and
/// `cap-insets` (`top`, `left`, `bottom`, `right`), lengths in points.
///
/// A malformed one is a warning naming the Contents.json and the key, and the entry ships
/// without slicing: the image is still right at its own size, which is what a wrong inset would
/// spoil anyway, and the rest of the set is not held back for it.
enum EntryResizing {
    static let knownKeys: Set<String> = ["mode", "center", "cap-insets"]
    static let centerKeys: Set<String> = ["mode", "width", "height"]
    static let insetKeys: Set<String> = ["top", "left", "bottom", "right"]

    /// The entry's slicing; nil when it has none, or (with a warning) when it is malformed.
    static func read(_ entry: ContentsField, problems: inout [CatalogProblem]) -> ImageResizing? {
        let field = entry["resizing"]
        guard field.value != nil else { return nil }
        func malformed(_ at: ContentsField, _ reason: String) -> ImageResizing? {
            problems.append(at.problem(reason + "; the image ships without its slicing", isError: false))
            return nil
        }
        guard field.object != nil else { return malformed(field, "expected an object with mode, center and cap-insets") }
        problems += field.unknownKeys(known: knownKeys.contains)
        let modeField = field["mode"]
        guard let mode = (modeField.value as? String).flatMap(ImageResizing.Mode.init(rawValue:)) else {
            return malformed(modeField, "expected \"3-part-horizontal\", \"3-part-vertical\" or \"9-part\"")
        }
        // Xcode always writes `center`; without one the centre tiles, as UIKit's default does.
        let centerField = field["center"]
        var center = ImageResizing.Center(mode: .tile)
        if centerField.value != nil {
            guard centerField.object != nil else { return malformed(centerField, "expected an object with mode, width and height") }
            problems += centerField.unknownKeys(known: centerKeys.contains)
            let centerMode = centerField["mode"]
            if centerMode.value != nil {
                guard let value = (centerMode.value as? String).flatMap(ImageResizing.CenterMode.init(rawValue:)) else {
                    return malformed(centerMode, "expected \"tile\" or \"stretch\"")
                }
                center.mode = value
            }
            for (name, path) in [("width", \ImageResizing.Center.width), ("height", \ImageResizing.Center.height)] {
                let length = centerField[name]
                guard length.value != nil else { continue }
                guard let points = points(length.value) else { return malformed(length, lengthExpectation) }
                center[keyPath: path] = points
            }
        }
        let insetsField = field["cap-insets"]
        var insets = ImageResizing.CapInsets()
        if insetsField.value != nil {
            guard insetsField.object != nil else { return malformed(insetsField, "expected an object with top, left, bottom and right") }
            problems += insetsField.unknownKeys(known: insetKeys.contains)
            let sides: [(String, WritableKeyPath<ImageResizing.CapInsets, Double>)] = [
                ("top", \.top), ("left", \.left), ("bottom", \.bottom), ("right", \.right),
            ]
            for (name, path) in sides {
                let length = insetsField[name]
                guard length.value != nil else { continue }
                guard let points = points(length.value) else { return malformed(length, lengthExpectation) }
                insets[keyPath: path] = points
            }
        }
        return ImageResizing(mode: mode, center: center, capInsets: insets)
    }

    private static let lengthExpectation = "expected a length in points (a number from 0 to \(Int(ImageResizing.maxPoints)))"

    /// A JSON number that is a length in points; nil for anything else (a string, an object, a
    /// negative or non-finite number). Foundation's casts read `true` as 1, as everywhere else
    /// in a Contents.json (`ContentsField`).
    private static func points(_ value: Any?) -> Double? {
        guard !(value is String), let number = value as? Double, number.isFinite,
              (0...ImageResizing.maxPoints).contains(number) else { return nil }
        return number
    }
}
