/// libFuzzer entry point for `RequestHeadScan` (compiled together with it and `BundleRequest`, so
/// no module boundary): any bytes are judged without a crash or a read past them, and judged the
/// same however they are split into reads — a prefix is `.incomplete` or already the whole
/// input's answer, and a framed head is framed the same by its own bytes alone.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestHeadScan(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let whole = bytes.withUnsafeBytes { RequestHeadScan.scan($0) }
    let headLength: Int?
    switch whole {
    case .bundle(_, let length), .other(let length, _, _), .emptyLine(let length), .refused(_, let length): headLength = length
    case .incomplete, .unframed: headLength = nil
    }
    if let headLength {
        guard headLength > 0, headLength <= bytes.count else { fatalError("head length \(headLength) of \(bytes.count) bytes") }
        let own = Array(bytes[0..<headLength]).withUnsafeBytes { RequestHeadScan.scan($0) }
        guard own == whole else { fatalError("the head alone gave \(own), the whole input \(whole)") }
    }
    // Every prefix the way a connection could receive it: not yet known, or the final answer.
    if whole != .incomplete {
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 64)) {
            let prefix = Array(bytes[0..<cut]).withUnsafeBytes { RequestHeadScan.scan($0) }
            guard prefix == .incomplete || prefix == whole else {
                fatalError("the first \(cut) bytes gave \(prefix), the whole input \(whole)")
            }
        }
    }
    return 0
}
