import Decoding
import JobEngine
import Rasterizing
import TesseraCore

/// Facts about a source file gathered while planning: its content hash and, when its header
/// reads, its size, which the decode job's memory estimate comes from.
///
/// Held in one shared box: every job on a source holds its facts in its input (a downscale and a
/// copy of each master) from planning until it runs, and inline they were about 170 bytes a copy
/// (an `ImageInfo` is most of it), for each of 100,000 tiny masters (issue 54, item 14).
struct SourceFacts: Sendable {
    private final class Storage: Sendable {
        let path: String
        let fileSize: Int
        let contentHash: ContentHash
        let info: ImageInfo?
        let page: PageSize?

        init(path: String, fileSize: Int, contentHash: ContentHash, info: ImageInfo?, page: PageSize?) {
            self.path = path
            self.fileSize = fileSize
            self.contentHash = contentHash
            self.info = info
            self.page = page
        }
    }

    private let storage: Storage

    init(path: String, fileSize: Int, contentHash: ContentHash, info: ImageInfo?, page: PageSize? = nil) {
        storage = Storage(path: path, fileSize: fileSize, contentHash: contentHash, info: info, page: page)
    }

    var path: String { storage.path }
    var fileSize: Int { storage.fileSize }
    var contentHash: ContentHash { storage.contentHash }
    var info: ImageInfo? { storage.info }
    /// For a PDF or SVG the build draws: its first page's size in points, which the render's
    /// memory is budgeted from.
    var page: PageSize? { storage.page }
}

extension SourceFacts: Encodable {
    /// A source is keyed by its content: the facts about it follow from its bytes.
    func encode(to encoder: any Encoder) throws {
        try SourceFile(path: path, contentHash: contentHash).encode(to: encoder)
    }
}
