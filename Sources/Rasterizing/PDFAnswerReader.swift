/// Reads a PDF worker's answer stream for one request, a line at a time, as a value: what the
/// document made the tool print is kept as messages, and only a line that starts with the
/// request's own nonce is an answer. A line holding the answer marker without it is a forgery (a
/// document's text made to look like an answer): nothing after it can be trusted. Kept apart
/// from the process so it can be fuzzed (`Fuzz/Harnesses/PDFAnswerFuzz.swift`).
struct PDFAnswerReader {
    /// What one line made of the answer.
    enum Step: Equatable {
        /// Not the answer yet: read the next line.
        case more
        /// The request's answer: its words.
        case answered([String])
        /// The marker without this request's nonce: stop the worker.
        case forged
    }

    /// The marker that starts a worker's answer line, before the nonce.
    static let marker: Character = "\u{1}"
    /// Messages kept at most: the first ones say what went wrong; a flood is cut.
    static let maxMessages = 64

    /// `\u{1}NONCE `: what this request's answer line starts with.
    let answerPrefix: String
    /// The tool's messages since the document opened (all of them until it did).
    private(set) var messages: [String] = []
    /// The messages said while opening the document and its first page (a repair's), once the
    /// worker said `opened`.
    private(set) var opening: [String]?

    init(nonce: String) {
        answerPrefix = "\(Self.marker)\(nonce) "
    }

    mutating func read(_ line: String) -> Step {
        if line.hasPrefix(answerPrefix) {
            let words = line.dropFirst(answerPrefix.count).split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            // The document and its page are open: what came so far was said opening them.
            if words == ["opened"], opening == nil {
                opening = messages
                messages = []
                return .more
            }
            return .answered(words)
        }
        if line.contains(Self.marker) { return .forged }
        if messages.count < Self.maxMessages { messages.append(line) }
        return .more
    }

    /// Every message, opening's first: what a failure reports.
    var allMessages: [String] { (opening ?? []) + messages }
}
