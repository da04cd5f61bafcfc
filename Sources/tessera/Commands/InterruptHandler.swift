import Dispatch
import Foundation
import JobEngine

/// Turns Ctrl-C into cooperative cancellation: the first SIGINT asks running jobs to stop at their
/// next check (they remove their temporary files on the way out); a second one exits at once.
final class InterruptHandler {
    private let source: any DispatchSourceSignal

    init(cancellation: CancellationSource) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            if cancellation.isCancelled {
                _exit(130)
            }
            cancellation.cancel()
            printError("\ninterrupted: stopping running jobs (Ctrl-C again to quit at once)")
        }
        source.resume()
    }

    deinit {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
