import Delivery

/// libFuzzer entry point for `BundleStreamReader`: any bytes, fed whole and in chunks of a size the
/// input's first byte picks, must give the same events (the reader's chunking promise), never a
/// crash, hang or unbounded allocation; every intact record's contents are decompressed too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBundleStreamReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // Small limits, so the fuzzer explores them instead of running out of memory below them.
    let limits = BundleLimits(maxPayloadLength: 1 << 20, maxUncompressedSize: 16 << 20,
                              maxIndexLength: 1 << 20, maxInMemorySize: 16 << 20)
    let whole = events(bytes, chunk: max(1, bytes.count), limits: limits)
    let chunk = 1 + Int(bytes.first ?? 0) % 97
    if events(bytes, chunk: chunk, limits: limits) != whole {
        fatalError("chunks of \(chunk) bytes gave different events than the whole input")
    }
    for case .record(let record, _) in whole {
        if let contents = try? record.contents(maxSize: limits.maxInMemorySize), contents.count != record.uncompressedSize {
            fatalError("'\(record.name)' decompressed to \(contents.count) bytes, not its declared \(record.uncompressedSize)")
        }
    }
    return 0
}

private func events(_ bytes: [UInt8], chunk: Int, limits: BundleLimits) -> [BundleStreamReader.Event] {
    let reader = BundleStreamReader(limits: limits)
    var events: [BundleStreamReader.Event] = []
    var position = 0
    while position < bytes.count {
        events += reader.feed(bytes[position..<min(bytes.count, position + chunk)])
        position += chunk
    }
    return events + reader.finish()
}
