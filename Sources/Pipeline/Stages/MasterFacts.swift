import Decoding
import JobEngine
import TesseraCore

/// What a full pass over a source file showed: its header, its upright size and the warnings
/// decoding it raised.
struct MasterFacts: Sendable {
    let info: ImageInfo
    let width: Int
    let height: Int
    let warnings: [String]

    init(info: ImageInfo, warnings: [String]) {
        self.init(info: info, width: info.uprightWidth, height: info.uprightHeight, warnings: warnings)
    }

    init(info: ImageInfo, width: Int, height: Int, warnings: [String]) {
        self.info = info
        self.width = width
        self.height = height
        self.warnings = warnings
    }
}
