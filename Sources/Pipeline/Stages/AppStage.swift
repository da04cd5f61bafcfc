import Delivery
import JobEngine
import Slicing
import TesseraCore

/// Copies what the app target keeps (`AppKeeping`) under `app/`, each file at its path in the
/// input (`app/App/Assets.xcassets/AppIcon.appiconset/…`, `app/res/mipmap-xhdpi/…`), byte for
/// byte: the catalogs and resource folders Xcode or Gradle compile into the app.
struct AppStage: Stage {
    typealias Input = CarriedFile
    typealias Output = CarriedData
    static let kind = JobKind.app
    static let version = 1
    static let priority = StagePriority.write
    let inputFolder: String
    let outputFolder: String
    var hashing: any FileHashing = DirectFileHashing()

    static func relativePath(of file: String) -> String { "app/\(file)" }

    func job(for asset: CatalogAsset, file: String) -> Job<CarriedData> {
        job(CarriedFile(asset, file: file, listedAs: Self.relativePath(of: file), tags: [], inputFolder: inputFolder,
                        hashing: hashing))
    }

    func subject(of input: CarriedFile) -> String { input.source.path }
    /// An unreadable file is not cached: its job fails.
    func cacheRoot(for input: CarriedFile) -> String? { input.source.contentHash == nil ? nil : outputFolder }

    func run(_ input: CarriedFile, context: JobContext) throws -> CarriedData {
        try input.copy(into: outputFolder, context: context)
    }
}
