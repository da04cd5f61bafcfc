import Foundation
import TesseraCore

/// An Xcode 26 Icon Composer icon (`AppIcon.icon`): `icon.json` (groups of layers, fills,
/// appearance specialisations) and the layer images under `Assets/`. Xcode compiles it into the
/// app's icon for every platform, appearance and size; nothing of it is an image to thin. It is
/// read as one app icon asset named by the bundle, carried byte for byte, and kept in the app
/// (`AppPlacement`), never walked as loose images.
enum IconComposerIcon {
    /// The description file inside the bundle.
    static let descriptionFile = "icon.json"
    /// Largest `icon.json` read (real ones are a few kilobytes).
    static let maxDescriptionBytes = 1 << 20

    /// Whether the folder at `path` is an Icon Composer bundle (`*.icon` holding `icon.json`).
    static func isBundle(_ path: String) -> Bool {
        path.hasSuffix(".icon") && FileManager.default.fileExists(atPath: "\(path)/\(descriptionFile)")
    }

    /// The icon at `folder` as an asset named `name`; nil (with an error) when its description is
    /// missing or unreadable. A layer naming an image the bundle lacks is an error naming both.
    static func asset(folder: String, name: String, tags: [String], catalog: String?, context: CatalogReadContext,
                      problems: inout [CatalogProblem]) -> CatalogAsset? {
        let description = "\(folder)/\(descriptionFile)"
        let relativeDescription = context.relative(description)
        guard context.boundary.contains(description) else {
            problems.append(CatalogProblem(isError: true, file: relativeDescription, key: nil,
                                           reason: "a link to a file outside the input folder; not read"))
            return nil
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: description)[.size] as? Int) ?? nil
        guard let size, size <= maxDescriptionBytes, let data = FileManager.default.contents(atPath: description) else {
            problems.append(CatalogProblem(isError: true, file: relativeDescription, key: nil,
                                           reason: size == nil ? "cannot be read" : "larger than \(maxDescriptionBytes) bytes; not read"))
            return nil
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            problems.append(CatalogProblem(isError: true, file: relativeDescription, key: nil,
                                           reason: "not a JSON object: not an Icon Composer description; the icon is not carried"))
            return nil
        }
        var entries = [CatalogEntry(file: relativeDescription, traits: VariantTraits())]
        let assets = "\(folder)/Assets"
        let present = Set(((try? FileManager.default.contentsOfDirectory(atPath: assets)) ?? []).filter { !$0.hasPrefix(".") })
        for file in present.sorted() {
            let path = "\(assets)/\(file)"
            guard context.boundary.contains(path) else {
                problems.append(CatalogProblem(isError: true, file: context.relative(path), key: nil,
                                               reason: "a link to a file outside the input folder; not read"))
                continue
            }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            entries.append(CatalogEntry(file: context.relative(path), traits: VariantTraits(),
                                        format: ImageFormat(fileExtension: URL(fileURLWithPath: file).pathExtension.lowercased())))
        }
        for image in imageNames(in: object) where !present.contains(image) {
            problems.append(CatalogProblem(isError: true, file: relativeDescription, key: "image-name",
                                           reason: "layer image '\(image)' is not in the bundle's Assets folder"))
        }
        return CatalogAsset(name: AssetID(name), kind: .iconComposer, entries: entries, tags: tags,
                            contentsFile: nil, catalog: catalog)
    }

    /// Every `image-name` the description's layers name, wherever they nest.
    static func imageNames(in value: Any) -> Set<String> {
        var names: Set<String> = []
        if let object = value as? [String: Any] {
            if let name = object["image-name"] as? String { names.insert(name) }
            for child in object.values { names.formUnion(imageNames(in: child)) }
        } else if let list = value as? [Any] {
            for child in list { names.formUnion(imageNames(in: child)) }
        }
        return names
    }
}
