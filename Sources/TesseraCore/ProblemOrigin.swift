/// Where a problem comes from, as errors, warnings, progress lines and `report.json` name it: a
/// kind of job (`JobKind`, whose cases it repeats under the same names), a check made before any
/// job runs (the catalog, the plan, the pipeline file), or another command's step (the server's
/// store, a query, the app-side client).
///
/// It lives beside `TesseraError` (which carries one) rather than in the engine, because every
/// stage module throws errors and none of them needs the engine to do so. What is hashed into
/// job keys and what timings and cache counts are kept by is `JobKind`, not this.
public enum ProblemOrigin: String, Sendable, CaseIterable, Codable, Comparable, CodingKeyRepresentable {
    // Found before any job runs: the catalog, the plan, unreadable sources, the pipeline file.
    case catalog, plan, read, pipeline, run
    // Jobs, in the order an asset's chain runs them.
    case decode, rasterize, downscale, encode, write, copy, carry, animate, timing, decompress, data
    // What the app target keeps and compiles itself (app icons, launcher icons: `app/`).
    case app
    // Jobs that gather every asset: `gather` assembles the manifest, `manifest` writes it (and the
    // platform manifests); `object` writes a bundle entry's download of its own; `publish` is
    // uploading a build to `tessera serve`.
    case gather, manifest, slice, compress, bundle, object, pack, publish, report
    // Reading and checking the files a build leaves (ready bitmaps), the build cache, and the
    // remote executor that builds work units elsewhere (`--remote-executor`).
    case bitmap, cache, execute
    // The other commands: conversion, queries, the server and its catalog, the app-side client.
    case convert, query, serve, channel, store, gzip, client

    /// Ordered by name, as reports list them.
    public static func < (lhs: ProblemOrigin, rhs: ProblemOrigin) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension ProblemOrigin: CustomStringConvertible {
    public var description: String { rawValue }
}

extension ProblemOrigin {
    /// Problems of a job come from its kind.
    public init(_ kind: JobKind) {
        // Every job kind is an origin of the same name (a test holds them together).
        self = ProblemOrigin(rawValue: kind.rawValue)!
    }
}
