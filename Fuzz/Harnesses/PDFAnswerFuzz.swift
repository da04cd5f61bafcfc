/// libFuzzer entry point for the PDF worker's answer reader (`PDFAnswerReader`): the stream a
/// hostile PDF can write into through MuPDF's messages. Lines are the input cut at newlines. Only
/// a line that starts with the request's nonce is ever an answer; the marker without it is a
/// forgery, after which nothing is read; messages stay bounded.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPDFAnswer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let nonce = "9f86d081884c7d65-9a2feaa0c55ad015"
    var reader = PDFAnswerReader(nonce: nonce)
    var opened = false
    for piece in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        let line = String(decoding: piece, as: UTF8.self)
        let step = reader.read(line)
        switch step {
        case .answered(let words):
            precondition(line.hasPrefix("\u{1}\(nonce) "), "an answer without the request's nonce: \(line.debugDescription)")
            precondition(words != ["opened"] || opened, "the first 'opened' taken as the answer")
            return 0
        case .forged:
            precondition(line.contains("\u{1}") && !line.hasPrefix("\u{1}\(nonce) "), "a forgery that is not one: \(line.debugDescription)")
            return 0
        case .more:
            if line.hasPrefix("\u{1}\(nonce) opened") && line.count == "\u{1}\(nonce) opened".count { opened = true }
        }
        precondition(reader.messages.count <= PDFAnswerReader.maxMessages && (reader.opening?.count ?? 0) <= PDFAnswerReader.maxMessages)
        precondition(!line.contains("\u{1}") || line.hasPrefix("\u{1}\(nonce) "), "a marker line kept as a message")
    }
    return 0
}
