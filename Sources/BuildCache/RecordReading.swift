import Foundation
import TesseraCore

/// `ActionEntry` and `ResultPack` read by `RecordScanner`: the same values `JSONDecoder` makes of
/// the JSON the cache writes, or nil for anything unusual (then `JSONDecoder` reads it).
extension ActionEntry {
    static func scan(_ scanner: RecordScanner) -> ActionEntry? {
        var format: Int?, key: ContentHash?, stage: String?, metadata: Data?, outputs: [Output]?
        let read = scanner.object { name in
            switch name {
            case "format": format = scanner.integer()
            case "key": key = scanner.hash()
            case "stage": stage = scanner.string()
            case "metadata": metadata = scanner.data()
            case "outputs":
                var list: [Output] = []
                guard scanner.array({ Output.scan(scanner).map { list.append($0) } != nil }) else { return false }
                outputs = list
            default: return false
            }
            return true
        }
        guard read, let format, let key, let stage, let metadata, let outputs else { return nil }
        var entry = ActionEntry(key: key, stage: stage, outputs: outputs, metadata: [])
        entry.format = format
        entry.metadata = metadata
        return entry
    }
}

extension ActionEntry.Output {
    static func scan(_ scanner: RecordScanner) -> ActionEntry.Output? {
        var path: String?, sha256: ContentHash?, size: Int?, contents: Data?
        var hasContents = false
        let read = scanner.object { key in
            switch key {
            case "path": path = scanner.string()
            case "sha256": sha256 = scanner.hash()
            case "size": size = scanner.integer()
            case "contents":
                hasContents = true
                contents = scanner.data()
                return contents != nil
            default: return false
            }
            return true
        }
        guard read, let path, let sha256, let size, hasContents == (contents != nil) else { return nil }
        return ActionEntry.Output(path: path, sha256: sha256, size: size, contents: contents)
    }
}

extension ResultPack {
    static func scan(_ scanner: RecordScanner) -> ResultPack? {
        var format: Int?, results: [Result]?, segments: [Segment]?
        let read = scanner.object { key in
            switch key {
            case "format": format = scanner.integer()
            case "results":
                var list: [Result] = []
                guard scanner.array({ Result.scan(scanner).map { list.append($0) } != nil }) else { return false }
                results = list
            case "segments":
                var list: [Segment] = []
                guard scanner.array({ Segment.scan(scanner).map { list.append($0) } != nil }) else { return false }
                segments = list
            default: return false
            }
            return true
        }
        guard read, let format, let results, let segments else { return nil }
        return ResultPack(format: format, results: results, segments: segments)
    }
}

extension ResultPack.Result {
    static func scan(_ scanner: RecordScanner) -> ResultPack.Result? {
        var key: ContentHash?, entry: ActionEntry?
        let read = scanner.object { name in
            switch name {
            case "key": key = scanner.hash()
            case "entry": entry = ActionEntry.scan(scanner)
            default: return false
            }
            return true
        }
        guard read, let key, let entry else { return nil }
        return ResultPack.Result(key: key, entry: entry)
    }
}

extension ResultPack.Segment {
    static func scan(_ scanner: RecordScanner) -> ResultPack.Segment? {
        var sha256: ContentHash?, size: Int?, blobs: [ResultPack.Blob]?
        let read = scanner.object { key in
            switch key {
            case "sha256": sha256 = scanner.hash()
            case "size": size = scanner.integer()
            case "blobs":
                var list: [ResultPack.Blob] = []
                guard scanner.array({ ResultPack.Blob.scan(scanner).map { list.append($0) } != nil }) else { return false }
                blobs = list
            default: return false
            }
            return true
        }
        guard read, let sha256, let size, let blobs else { return nil }
        return ResultPack.Segment(sha256: sha256, size: size, blobs: blobs)
    }
}

extension ResultPack.Blob {
    static func scan(_ scanner: RecordScanner) -> ResultPack.Blob? {
        var sha256: ContentHash?, size: Int?
        let read = scanner.object { key in
            switch key {
            case "sha256": sha256 = scanner.hash()
            case "size": size = scanner.integer()
            default: return false
            }
            return true
        }
        guard read, let sha256, let size else { return nil }
        return ResultPack.Blob(sha256: sha256, size: size)
    }
}
