/// A kind of job a build runs: the name a stage declares, hashed into each of its jobs' keys and
/// cache entries, and what run timings, cache counts and progress lines are kept by. `plan` is
/// the build's planning, memoised in the cache like a job's result.
///
/// The raw values are hashed and printed: renaming a case makes every key made with it new.
public enum JobKind: String, Sendable, CaseIterable, Codable, Comparable, CodingKeyRepresentable {
    // An asset's chain, in the order it runs.
    case decode, rasterize, downscale, encode, write, copy, carry, animate, timing, decompress, data
    // What the app target keeps and compiles itself (app icons, launcher icons: `app/`).
    case app
    // Jobs that gather every asset: `gather` assembles the manifest, `manifest` writes it (and the
    // platform manifests), `slice` the slice reports; `compress` and `bundle` make the packs,
    // `object` each bundle entry's download of its own (`objects/<sha256>`).
    case gather, manifest, slice, compress, bundle, object
    // The plan record (`PlanMemo`).
    case plan

    /// Ordered by name, as reports list them.
    public static func < (lhs: JobKind, rhs: JobKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension JobKind: CustomStringConvertible {
    public var description: String { rawValue }
}
