import Delivery
import JobEngine
import Slicing
import TesseraCore

/// Copies what the app target keeps (`AppKeeping`) under `app/`, each file at its path in the
/// input (`app/App/Assets.xcassets/AppIcon.appiconset/…`, `app/res/mipmap-xhdpi/…`), byte for
/// byte: the catalogs and resource folders Xcode or Gradle compile into the app.
struct AppStage: Stage {
    typealias Output = CarriedData
    static let name = StageName.app
    static let version = 1
    let inputFolder: String
    let outputFolder: String
    var hashing: any FileHashing = DirectFileHashing()

    static func relativePath(of file: String) -> String { "app/\(file)" }

    func job(for asset: CatalogAsset, file: String) -> Job<CarriedData> {
        let relative = Self.relativePath(of: file)
        let key = Self.key(options: ["from": file, "to": relative])
        let source = "\(inputFolder)/\(file)", target = "\(outputFolder)/\(relative)"
        let copy = job(key: key, subject: source, priority: StagePriority.write) { context in
            try CarriedData.copy(asset, from: source, to: target, listedAs: relative, tags: [], context: context)
        }
        guard let content = try? hashing.contentHash(ofFileAt: source) else { return copy }
        return copy.cached(under: outputFolder, salt: ["content=\(content.hex)"])
    }
}
