import Foundation
import JobEngine
import Pipeline
import TesseraCore

/// Which work units go to the executor, in how many actions.
///
/// A unit goes when this cache lacks an entry of one of its jobs (otherwise the run restores it
/// anyway) and the worker can build it: the remote binary is a static executable in an empty
/// sandbox, so nothing it would load at run time is there (librsvg for SVG and `mutool` for PDF,
/// which `rasterize` jobs draw with; libheif for HEIC). Those units, and whatever an action fails
/// to bring back, are built here. A vector carried as it is (`carry`) needs no renderer: it goes.
struct UnitBatches {
    /// Units by action, each action's in id order.
    let batches: [[RemoteWorkOrder.Unit]]
    /// Units the cache already has whole.
    let cached: Int
    /// Units left to this machine because the worker cannot build them.
    let localOnly: [RemoteWorkOrder.Unit]

    /// Kinds of job the worker cannot reproduce: `rasterize` needs librsvg or `mutool`; `app`
    /// (what stays in the app) is planned from every app icon set and the project's settings at
    /// once, so a worker shipped one batch would plan it otherwise. `WorkUnits` already leaves
    /// `app` jobs out of every unit (this machine runs them after the variants); a unit holding one
    /// would still stay here.
    static let localKinds: Set<JobKind> = [.rasterize, .app]

    /// Extensions of images only this machine can decode (libheif is loaded at run time).
    static let localExtensions: Set<String> = ["heic", "heif", "heics", "avif"]

    /// `unitsPerAction`: the batch for a number of units to send.
    init(_ units: [RemoteWorkOrder.Unit], unitsPerAction: (Int) -> Int, held: (ContentHash) -> Bool) {
        var wanted: [RemoteWorkOrder.Unit] = []
        var local: [RemoteWorkOrder.Unit] = []
        var cached = 0
        for unit in units {
            guard !unit.cacheKeys.isEmpty, !unit.cacheKeys.allSatisfy(held) else {
                cached += 1
                continue
            }
            if !unit.kinds.isDisjoint(with: Self.localKinds) || unit.reads.contains(where: { Self.localExtensions.contains(($0 as NSString).pathExtension.lowercased()) }) {
                local.append(unit)
            } else {
                wanted.append(unit)
            }
        }
        let size = max(1, unitsPerAction(wanted.count))
        batches = stride(from: 0, to: wanted.count, by: size).map { Array(wanted[$0..<min($0 + size, wanted.count)]) }
        self.cached = cached
        localOnly = local
    }
}
