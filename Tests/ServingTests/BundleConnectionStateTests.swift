@testable import Serving
import Testing

/// The bundle connection's state machine without a channel: each event's effect, as the handler
/// relies on it.
@Suite("Bundle connection state")
struct BundleConnectionStateTests {
    @Test("at a request boundary bytes are scanned; unwritable or quiescing, they are held")
    func boundary() {
        var state = BundleConnectionState(holdLimit: 100)
        let boundary = state.step(readable: 10, writable: true), unwritable = state.step(readable: 10, writable: false)
        #expect(boundary == .scan && unwritable == .hold)
        let first = state.quiesce(), second = state.quiesce()
        #expect(first && !second)
        let afterQuiesce = state.step(readable: 10, writable: true)
        #expect(state.mode == .closing && afterQuiesce == .drop)
    }

    @Test("a passed-on request's body is forwarded as it arrives; the next request waits for its response, then is answered here")
    func passedOnRequest() {
        var state = BundleConnectionState(holdLimit: 100)
        state.passedRequest(bodyLength: 30, keepsAlive: true)
        let firstPart = state.step(readable: 20, writable: true)
        #expect(firstPart == .forward(20))
        state.forwarded(20)
        #expect(state.mode == .forwardingBody(remaining: 10, answered: false, keepsAlive: true))
        let processNow = state.responseQueued(closesConnection: false)
        #expect(!processNow, "the body is not all passed yet")
        let rest = state.step(readable: 50, writable: true)
        #expect(rest == .forward(10))
        state.forwarded(10)
        #expect(state.mode == .answering, "the response was queued before the body ended")
        state.passedRequest(bodyLength: 0, keepsAlive: true)
        let waiting = state.step(readable: 50, writable: true)
        #expect(waiting == .hold)
        let resumed = state.responseQueued(closesConnection: false)
        #expect(resumed && state.mode == .answering)
    }

    @Test("the codec keeps the connection when a response or request ends it, when too much is pipelined behind a request, or when the client half-closes while bytes are held")
    func handOver() {
        var closing = BundleConnectionState(holdLimit: 100)
        closing.passedRequest(bodyLength: 0, keepsAlive: true)
        let resumed = closing.responseQueued(closesConnection: true)
        #expect(resumed && closing.mode == .handedOver)
        let after = closing.step(readable: 1, writable: true)
        #expect(after == .passAll)

        var flooded = BundleConnectionState(holdLimit: 100)
        flooded.passedRequest(bodyLength: 0, keepsAlive: true)
        let atLimit = flooded.step(readable: 100, writable: true), overLimit = flooded.step(readable: 101, writable: true)
        #expect(atLimit == .hold && overLimit == .passAll && flooded.mode == .handedOver)

        var halfClosed = BundleConnectionState(holdLimit: 100)
        halfClosed.inputClosed(holdsBytes: false)
        #expect(halfClosed.mode == .answering)
        halfClosed.inputClosed(holdsBytes: true)
        #expect(halfClosed.mode == .handedOver)
    }

    @Test("a bundle answered with Connection: close, or a refused request, ends reading")
    func closing() {
        var state = BundleConnectionState(holdLimit: 100)
        state.answeredBundle(keepsAlive: true)
        #expect(state.mode == .answering)
        state.answeredBundle(keepsAlive: false)
        #expect(state.mode == .closing)
        var refused = BundleConnectionState(holdLimit: 100)
        refused.refused()
        let after = refused.step(readable: 5, writable: true)
        #expect(after == .drop)
    }

    @Test("read ends are passed on only after bytes were, and a pass outside a read ends one at once; a re-entered pass runs another round")
    func bookkeeping() {
        var reads = ReadCompletion()
        reads.readStarted()
        let quietRead = reads.readEnded()
        #expect(!quietRead)
        reads.readStarted()
        reads.passedOn()
        let duringRead = reads.passedOutsideRead()
        #expect(!duringRead, "a read is under way: its end will say it")
        let ended = reads.readEnded(), endedAgain = reads.readEnded()
        #expect(ended && !endedAgain)
        reads.passedOn()
        let outside = reads.passedOutsideRead()
        #expect(outside)

        var passes = ReentrantPasses()
        let started = passes.begin(), reentered = passes.begin()
        #expect(started && !reentered, "re-entered: asks for another round")
        let round = passes.anotherRound(), done = passes.anotherRound()
        #expect(round && !done)
        let stillRunning = passes.begin()
        #expect(!stillRunning, "the pass has not ended: what follows its rounds may call back in")
        passes.end()
        let again = passes.begin()
        #expect(again)
    }
}
