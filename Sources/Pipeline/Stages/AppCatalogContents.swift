import Delivery
import Foundation
import TesseraCore

/// An image set's `Contents.json` rewritten to name the variants Tessera made for it
/// (`AppCatalogStage`): what Xcode's asset catalog format reference calls the set's `images`, one
/// entry per scale of each slot.
///
/// A *slot* is an entry's description without its `filename`, `scale` and `resizing` (its idiom,
/// appearances, gamut, size classes…). Each slot that names a file is one variant group; it gets an
/// entry for every scale the set already listed for it and every scale a variant was made at,
/// in ascending order, each naming its variant's file. Slots that name no file, and every other
/// key of the description, are kept as written. An entry's `resizing` (image slicing) is kept as
/// written on its scale; a scale the set did not list takes the slot's first one, since slicing
/// is in points and Xcode's editor writes it alike on every scale (a 2x sliced and a 1x not would
/// be a 1x that no longer resizes). Keys are written sorted, so the bytes depend on the set alone.
enum AppCatalogContents {
    struct Rewritten {
        let contents: [UInt8]
        /// The variant each file name written into the set stands for.
        let files: [String: VariantEntry]
    }

    /// - Parameters:
    ///   - groups: each original entry's file name → its variant group.
    ///   - variants: the variants made, by group and scale.
    static func rewrite(_ original: [UInt8], file: String, groups: [String: String],
                        variants: [String: [DisplayScale: VariantEntry]]) throws(TesseraError) -> Rewritten {
        guard var document = (try? JSONSerialization.jsonObject(with: Data(original))) as? [String: Any],
              let images = document["images"] as? [[String: Any]] else {
            throw TesseraError(.invalidInput, file: file, origin: .app, reason: "not an image set description with an images list")
        }
        var order: [String] = [], slots: [String: (template: [String: Any], group: String?, scales: Set<DisplayScale>)] = [:]
        var kept: [String: [[String: Any]]] = [:]
        // Each slot's slicing: as written per scale, and the first written, for scales made anew.
        var resizing: [String: (first: (value: Any, scale: DisplayScale)?, byScale: [DisplayScale: Any])] = [:]
        for image in images {
            var template = image
            let filename = template.removeValue(forKey: "filename") as? String
            let scale = (template.removeValue(forKey: "scale") as? String).flatMap(DisplayScale.init(parsing:))
            let sliced = template.removeValue(forKey: "resizing")
            let key = signature(of: template)
            if slots[key] == nil {
                order.append(key)
                slots[key] = (template, nil, [])
                resizing[key] = (nil, [:])
            }
            if let sliced {
                if resizing[key]!.first == nil { resizing[key]!.first = (sliced, scale ?? .x1) }
                if let scale { resizing[key]!.byScale[scale] = sliced }
            }
            if let scale { slots[key]!.scales.insert(scale) }
            if let filename, let group = groups[filename] { slots[key]!.group = group }
            kept[key, default: []].append(image)
        }
        var rewritten: [[String: Any]] = [], files: [String: VariantEntry] = [:]
        for key in order {
            let slot = slots[key]!
            guard let group = slot.group, let made = variants[group], !made.isEmpty else {
                rewritten += kept[key] ?? []
                continue
            }
            for scale in slot.scales.union(made.keys).sorted() {
                var entry = slot.template
                entry["scale"] = scale.description
                // A scale made anew gets the first written slicing in its own pixels (Xcode's unit).
                if let sliced = resizing[key]?.byScale[scale]
                    ?? resizing[key]?.first.map({ Self.resizing($0.value, scaledBy: Double(scale.factor) / Double($0.scale.factor)) }) {
                    entry["resizing"] = sliced
                }
                if let variant = made[scale] {
                    let name = (variant.path as NSString).lastPathComponent
                    entry["filename"] = name
                    files[name] = variant
                }
                rewritten.append(entry)
            }
        }
        document["images"] = rewritten
        guard let data = try? JSONSerialization.data(withJSONObject: document,
                                                     options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else {
            throw TesseraError(.internalFailure, file: file, origin: .app, reason: "the rewritten description could not be written as JSON")
        }
        return Rewritten(contents: Array(data) + [0x0A], files: files)
    }

    /// A slot's identity: its description, keys sorted.
    private static func signature(of template: [String: Any]) -> String {
        let data = try? JSONSerialization.data(withJSONObject: template, options: [.sortedKeys])
        return data.flatMap { String(data: $0, encoding: .utf8) } ?? ""
    }

    /// A `resizing` value as written, its cap insets times `factor` (whole pixels): the same
    /// slicing for an image of another scale, as Xcode writes insets in each image's pixels. The
    /// centre's size is kept: Xcode writes the same (a 1-pixel centre) at every scale.
    static func resizing(_ value: Any, scaledBy factor: Double) -> Any {
        guard var object = value as? [String: Any], var insets = object["cap-insets"] as? [String: Any] else { return value }
        for key in insets.keys {
            if let number = insets[key] as? NSNumber { insets[key] = Int((number.doubleValue * factor).rounded()) }
        }
        object["cap-insets"] = insets
        return object
    }
}
