import Foundation
import Pipeline
import TesseraCore

/// The input folder as an action ships it: every file the planner may read (catalog and folder
/// metadata, settings, anything that is no unit's source) goes with every action, so the worker
/// plans the same units with the same keys; the sources of units are shipped only with their own.
///
/// Dot-folders (`.git`), the build's output folder and its cache folder are left out: a build
/// never reads them.
struct InputFiles {
    /// Relative paths of the files that go with every action.
    let shared: [String]

    init(order: RemoteWorkOrder, excluding cacheFolder: String) throws(TesseraError) {
        let unitSources = Set(order.units.flatMap(\.reads))
        let root = URL(fileURLWithPath: order.inputFolder).standardizedFileURL.path
        let excluded = [order.outputFolder, cacheFolder].map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        guard let walker = FileManager.default.enumerator(atPath: root) else {
            throw TesseraError(.io, file: order.inputFolder, origin: .execute, reason: "cannot list the input folder")
        }
        var shared: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            let full = root + "/" + relative
            if name.hasPrefix(".") || excluded.contains(where: { full == $0 || full.hasPrefix($0 + "/") }) {
                walker.skipDescendants()
                continue
            }
            guard walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular else { continue }
            // A set's Contents.json is read by the planner for every asset (names, collisions,
            // namespaces), even when a unit also reads it (a colour set's is its data): it goes
            // with every action, or the worker would plan other names and other keys.
            if !unitSources.contains(relative) || name == "Contents.json" { shared.append(relative) }
        }
        self.shared = shared.sorted()
    }
}
