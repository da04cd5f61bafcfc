import Delivery
import JobEngine
import Slicing
import TesseraCore

/// Copies what the app target keeps (`AppKeeping`) under `app/`, each file at its path in the
/// input (`app/App/Assets.xcassets/AppIcon.appiconset/…`, `app/res/mipmap-xhdpi/…`), byte for
/// byte: the catalogs and resource folders Xcode or Gradle compile into the app.
///
/// An image file goes only once the jobs that decode its variants have succeeded (`validated`):
/// a file a download would refuse is not handed to Xcode either, and its failure is reported once.
struct AppStage: Stage {
    struct Input: Encodable, Sendable {
        let carried: CarriedFile
        /// The jobs that prove the asset's images decode.
        let validated: [Prerequisite]
    }
    typealias Output = CarriedData
    static let kind = JobKind.app
    static let version = 2
    static let priority = StagePriority.write
    let inputFolder: String
    let outputFolder: String
    var hashing: any FileHashing = DirectFileHashing()

    static func relativePath(of file: String) -> String { "app/\(file)" }

    func job(for asset: CatalogAsset, file: String, validated: [Prerequisite] = []) -> Job<CarriedData> {
        job(Input(carried: CarriedFile(asset, file: file, listedAs: Self.relativePath(of: file), tags: [],
                                       inputFolder: inputFolder, hashing: hashing),
                  validated: validated))
    }

    func subject(of input: Input) -> String { input.carried.source.path }
    /// An unreadable file is not cached: its job fails.
    func cacheRoot(for input: Input) -> String? { input.carried.source.contentHash == nil ? nil : outputFolder }

    func run(_ input: Input, context: JobContext) throws -> CarriedData {
        try input.carried.copy(into: outputFolder, context: context)
    }
}
