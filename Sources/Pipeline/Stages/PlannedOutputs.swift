import JobEngine
import TesseraCore

/// A file the build will write, and the job that writes it.
struct PlannedFile: Sendable, Hashable, Encodable {
    /// Relative to the output folder.
    let path: String
    let producer: Prerequisite

    init(path: String, producer: JobKey) {
        self.path = path
        self.producer = Prerequisite(producer)
    }
}

/// A catalog item's file carried through unchanged (colour, data, symbol sets).
struct PlannedData: Sendable {
    let name: AssetID
    let kind: String
    let file: PlannedFile
    let tags: [String]
}

/// Every file the plan will write, by variant group and scale: what device selections map onto
/// before anything runs, so later stages can be planned as jobs of their own.
struct PlannedOutputs: Sendable {
    private(set) var variants: [String: [DisplayScale: PlannedFile]] = [:]
    private(set) var bitmaps: [String: [DisplayScale: PlannedFile]] = [:]
    private(set) var data: [PlannedData] = []
    /// The PDF or SVG shipped beside a group's renders (`preserves-vector-representation`).
    private(set) var vectors: [String: PlannedFile] = [:]
    /// Every planned file by its path (the pack stage's planning reads it); empty in a copy made
    /// by `withoutPathIndex()`.
    private(set) var files: [String: PlannedFile] = [:]

    /// The same outputs without `files`, for what reads them by group alone and is kept to the end
    /// of the build (`SelectionRecipe`).
    func withoutPathIndex() -> PlannedOutputs {
        var copy = self
        copy.files = [:]
        return copy
    }

    mutating func addVariant(group: AssetID, scale: DisplayScale, _ file: PlannedFile) {
        variants[group.name, default: [:]][scale] = file
        files[file.path] = file
    }

    mutating func addBitmap(group: AssetID, scale: DisplayScale, _ file: PlannedFile) {
        bitmaps[group.name, default: [:]][scale] = file
        files[file.path] = file
    }

    mutating func addVector(group: AssetID, _ file: PlannedFile) {
        vectors[group.name] = file
        files[file.path] = file
    }

    mutating func addData(_ item: PlannedData) {
        data.append(item)
        files[item.file.path] = item.file
    }
}
