import Dispatch
import Synchronization
import TesseraCore

/// Every distinct PNG the report's devices get, measured once by content hash (many device
/// classes share a file), in parallel, within the budget: biggest first, so what is left out is
/// what could save least.
struct ImageMeasurements {
    private(set) var byHash: [ContentHash: ImageMeasurement] = [:]
    private(set) var measured = 0
    private(set) var unmeasured = 0

    /// `paths`: the files to consider; `folder`: the build's output folder (nil: none can be read).
    init(paths: Set<String>, facts: BuiltFileFacts, folder: String?, measurer: (any ImageSavingsMeasuring)?,
         budget: InsightRules.Budget) {
        // One file per content: the first path in order, so the same build reads the same file.
        var candidates: [ContentHash: (path: String, bytes: Int, pixels: Int)] = [:]
        for path in paths.sorted() {
            guard let file = facts[path], file.format == .png, candidates[file.sha256] == nil else { continue }
            candidates[file.sha256] = (path, file.bytes, file.pixels)
        }
        let ordered = candidates.sorted { ($1.value.bytes, $0.key.hex) < ($0.value.bytes, $1.key.hex) }
        guard let folder, let measurer else {
            unmeasured = ordered.count
            return
        }
        var picked: [(hash: ContentHash, path: String)] = []
        var pixels = 0
        for candidate in ordered where picked.count < budget.images && pixels + candidate.value.pixels <= budget.pixels {
            picked.append((candidate.key, folder + "/" + candidate.value.path))
            pixels += candidate.value.pixels
        }
        let chosen = picked
        // Each result lands in its own slot: the outcome does not depend on which finishes first.
        let results = Mutex<[Int: ImageMeasurement]>([:])
        DispatchQueue.concurrentPerform(iterations: chosen.count) { index in
            if let measurement = measurer.measure(file: chosen[index].path) {
                results.withLock { $0[index] = measurement }
            }
        }
        let made = results.withLock { $0 }
        for (index, item) in chosen.enumerated() {
            if let measurement = made[index] { byHash[item.hash] = measurement }
        }
        measured = chosen.count
        unmeasured = ordered.count - chosen.count
    }
}
