import Delivery
import Foundation
import Packing
import TesseraCore

/// libFuzzer entry point for `BundleFile`, `BundleVerifier` and `BundleExtractor`: any bytes,
/// written as a bundle file, must open or be refused with an error, never crash, hang or allocate
/// without bound; every entry is read; and the promises hold: a bundle that verifies extracts, and
/// extraction writes only inside its folder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBundleFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let scratch = "\(ProcessInfo.processInfo.environment["TESSERA_FUZZ_SCRATCH"] ?? "/tmp")/tessera-fuzz-\(getpid())"
    let files = FileManager.default
    try? files.removeItem(atPath: scratch)
    try? files.createDirectory(atPath: "\(scratch)/box", withIntermediateDirectories: true)
    defer { try? files.removeItem(atPath: scratch) }
    let path = "\(scratch)/input.tsb"
    guard files.createFile(atPath: path, contents: data.map { Data(bytes: $0, count: size) } ?? Data()) else {
        fatalError("cannot write \(path)")
    }
    let limits = BundleLimits(maxPayloadLength: 1 << 20, maxUncompressedSize: 16 << 20,
                              maxIndexLength: 1 << 20, maxInMemorySize: 16 << 20)
    let verification = BundleVerifier.verify(path: path, limits: limits)
    let destination = "\(scratch)/box/out"
    var extracted = false
    if let bundle = try? BundleFile(path: path, limits: limits) {
        for entry in bundle.index.entries { _ = try? bundle.contents(of: entry) }
        extracted = (try? BundleExtractor.extract(bundle, into: destination)) != nil
    }
    if verification.isIntact && !extracted {
        fatalError("verify found no problem but extract failed")
    }
    // Extraction may create only `box/out`: an entry escaping its folder would land beside it.
    let box = (try? files.contentsOfDirectory(atPath: "\(scratch)/box")) ?? []
    let top = (try? files.contentsOfDirectory(atPath: scratch)) ?? []
    if box.contains(where: { $0 != "out" }) || top.sorted() != ["box", "input.tsb"] {
        fatalError("extraction wrote outside its folder: box \(box), scratch \(top)")
    }
    return 0
}
