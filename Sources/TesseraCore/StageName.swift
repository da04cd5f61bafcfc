/// Every place a job or a problem can come from: the build's stages, the checks made before any
/// job runs, and the other commands' steps. Jobs, errors, timings, cache counts, progress lines
/// and `report.json` all name stages by these values, and the raw values are what they print and
/// hash, so renaming a case changes every job key made with it.
///
/// It lives beside `TesseraError` (which carries one) rather than in the engine, because every
/// stage module throws errors and none of them needs the engine to do so.
public enum StageName: String, Sendable, CaseIterable, Codable, Comparable, CodingKeyRepresentable {
    // Found before any job runs: the catalog, the plan, unreadable sources, the pipeline file.
    case catalog, plan, read, pipeline, run
    // Jobs, in the order an asset's chain runs them.
    case decode, rasterize, downscale, encode, write, copy, carry, animate, timing, decompress, data
    // What the app target keeps and compiles itself (app icons, launcher icons: `app/`).
    case app
    // Jobs that gather every asset: `gather` assembles the manifest, `manifest` writes it (and the
    // platform manifests); `publish` is uploading a build to `tessera serve`.
    case gather, manifest, slice, compress, bundle, pack, publish, report
    // Reading and checking the files a build leaves (ready bitmaps), and the build cache.
    case bitmap, cache
    // The other commands: conversion, queries, the server and its catalog, the app-side client.
    case convert, query, serve, channel, store, gzip, client

    /// Ordered by name, as reports list them.
    public static func < (lhs: StageName, rhs: StageName) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension StageName: CustomStringConvertible {
    public var description: String { rawValue }
}
