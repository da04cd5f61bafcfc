@testable import Serving
import Testing

/// The bundle connection's state machine without a channel: each event's effect, as the handler
/// relies on it.
@Suite("Bundle connection state")
struct BundleConnectionStateTests {
    @Test("at a request boundary bytes are scanned; unwritable or quiescing, they are held")
    func boundary() {
        var state = BundleConnectionState(holdLimit: 100)
        #expect(state.step(readable: 10, writable: true) == .scan)
        #expect(state.step(readable: 10, writable: false) == .hold)
        #expect(state.quiesce() && !state.quiesce())
        #expect(state.mode == .closing && state.step(readable: 10, writable: true) == .drop)
    }

    @Test("a passed-on request's body is forwarded as it arrives; the next request waits for its response, then is answered here")
    func passedOnRequest() {
        var state = BundleConnectionState(holdLimit: 100)
        state.passedRequest(bodyLength: 30, keepsAlive: true)
        #expect(state.step(readable: 20, writable: true) == .forward(20))
        state.forwarded(20)
        #expect(state.mode == .forwardingBody(remaining: 10, answered: false, keepsAlive: true))
        #expect(!state.responseQueued(closesConnection: false), "the body is not all passed yet")
        #expect(state.step(readable: 50, writable: true) == .forward(10))
        state.forwarded(10)
        #expect(state.mode == .answering, "the response was queued before the body ended")
        state.passedRequest(bodyLength: 0, keepsAlive: true)
        #expect(state.step(readable: 50, writable: true) == .hold)
        #expect(state.responseQueued(closesConnection: false) && state.mode == .answering)
    }

    @Test("the codec keeps the connection when a response or request ends it, when too much is pipelined behind a request, or when the client half-closes while bytes are held")
    func handOver() {
        var closing = BundleConnectionState(holdLimit: 100)
        closing.passedRequest(bodyLength: 0, keepsAlive: true)
        #expect(closing.responseQueued(closesConnection: true) && closing.mode == .handedOver)
        #expect(closing.step(readable: 1, writable: true) == .passAll)

        var flooded = BundleConnectionState(holdLimit: 100)
        flooded.passedRequest(bodyLength: 0, keepsAlive: true)
        #expect(flooded.step(readable: 100, writable: true) == .hold)
        #expect(flooded.step(readable: 101, writable: true) == .passAll && flooded.mode == .handedOver)

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
        #expect(refused.step(readable: 5, writable: true) == .drop)
    }

    @Test("read ends are passed on only after bytes were, and a pass outside a read ends one at once; a re-entered pass runs another round")
    func bookkeeping() {
        var reads = ReadCompletion()
        reads.readStarted()
        #expect(!reads.readEnded())
        reads.readStarted()
        reads.passedOn()
        #expect(!reads.passedOutsideRead(), "a read is under way: its end will say it")
        #expect(reads.readEnded() && !reads.readEnded())
        reads.passedOn()
        #expect(reads.passedOutsideRead())

        var passes = ReentrantPasses()
        #expect(passes.begin())
        #expect(!passes.begin(), "re-entered: asks for another round")
        #expect(passes.anotherRound() && !passes.anotherRound())
        #expect(passes.begin())
    }
}
