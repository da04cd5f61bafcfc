import Foundation
import TesseraCore

/// The retry rule every download into a partial file follows (bundles and objects alike).
///
/// Each attempt resumes from the bytes kept so far. One that fails after making progress does not
/// count against `attempts`; one that makes none does, and so does one that ran out of its
/// deadline (too slow, whatever it delivered) or brought bytes that cannot be the file, which are
/// thrown away and never resumed from. Failures back off a little more each time.
struct ResumingRetries: Sendable {
    var attempts: Int
    var url: URL

    /// Runs `attempt` until it returns, or throws the last failure once `attempts` failures are
    /// counted (naming the URL) or at once when cancelled.
    func run(into partial: PartialFile, _ attempt: () async throws(TesseraError) -> Void) async throws(TesseraError) {
        var failures = 0
        while true {
            if Task.isCancelled { throw TesseraError(.cancelled, file: url.absoluteString, origin: .client, reason: "cancelled") }
            let before = partial.size
            do throws(TesseraError) {
                try await attempt()
                return
            } catch {
                partial.close()
                if error.kind == .cancelled { throw error }
                if error.kind == .invalidInput { partial.remove() }
                if partial.size <= before || error.kind == .invalidInput || error.kind == .limitExceeded { failures += 1 }
                if failures >= attempts {
                    throw TesseraError(error.kind == .invalidInput ? .invalidInput : .io, file: url.absoluteString,
                                       origin: .client, reason: "\(error.reason) (gave up after \(failures) failed attempts)")
                }
                try? await Task.sleep(nanoseconds: UInt64(failures) * 50_000_000)
            }
        }
    }
}
