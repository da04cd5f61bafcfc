/// Where a bundle connection is between requests, and what each event makes of it: the state of
/// `BundleConnectionHandler` as a value, in SwiftNIO's manner. The handler does the I/O; this
/// decides, and can be tested without a channel.
struct BundleConnectionState {
    enum Mode: Equatable {
        /// At a request boundary: bundle requests are answered here.
        case answering
        /// A request passed on whose body is still arriving; `answered` once its response is
        /// queued; `keepsAlive` while neither the request nor its response ends the connection.
        case forwardingBody(remaining: Int, answered: Bool, keepsAlive: Bool)
        /// A whole request passed on; later bytes wait for its response.
        case awaitingResponse(keepsAlive: Bool)
        /// The codec reads everything from here on.
        case handedOver
        /// A `Connection: close` request was answered, or the server is shutting down: nothing
        /// more is read.
        case closing
    }

    /// What to do next with the bytes held.
    enum Step: Equatable {
        /// Give them all to the codec.
        case passAll
        /// Drop them: the connection is closing.
        case drop
        /// Keep them until an event changes the state.
        case hold
        /// Give the next `count` bytes to the codec: a passed-on request's body.
        case forward(Int)
        /// Read the next request's head (`RequestHeadScan`).
        case scan
    }

    /// The most bytes held behind a request the codec is answering.
    let holdLimit: Int
    private(set) var mode = Mode.answering
    /// Shutting down: nothing more is answered here.
    private(set) var isQuiescing = false

    init(holdLimit: Int) { self.holdLimit = holdLimit }

    /// What to do with `readable` held bytes; `writable`: whether the client is reading what is
    /// written (an unwritable channel gets no more answers queued in memory).
    mutating func step(readable: Int, writable: Bool) -> Step {
        switch mode {
        case .handedOver: return .passAll
        case .closing: return .drop
        case .awaitingResponse:
            guard readable > holdLimit else { return .hold }
            mode = .handedOver
            return .passAll
        case let .forwardingBody(remaining, _, _): return .forward(min(remaining, readable))
        case .answering: return isQuiescing || !writable ? .hold : .scan
        }
    }

    /// `count` bytes of a passed-on request's body went to the codec.
    mutating func forwarded(_ count: Int) {
        guard case let .forwardingBody(remaining, answered, keepsAlive) = mode else { return }
        if count < remaining {
            mode = .forwardingBody(remaining: remaining - count, answered: answered, keepsAlive: keepsAlive)
        } else if answered {
            mode = keepsAlive ? .answering : .handedOver
        } else {
            mode = .awaitingResponse(keepsAlive: keepsAlive)
        }
    }

    /// A request's head went to the codec, with `bodyLength` bytes of body still to pass.
    mutating func passedRequest(bodyLength: Int, keepsAlive: Bool) {
        mode = bodyLength > 0 ? .forwardingBody(remaining: bodyLength, answered: false, keepsAlive: keepsAlive)
            : .awaitingResponse(keepsAlive: keepsAlive)
    }

    /// A bundle was answered here.
    mutating func answeredBundle(keepsAlive: Bool) {
        if !keepsAlive { mode = .closing }
    }

    /// The scan cannot frame what follows (chunked, an upgrade, anything malformed): the codec answers it.
    mutating func handOver() { mode = .handedOver }

    /// A request refused here (as nginx refuses it): nothing after it is read.
    mutating func refused() { mode = .closing }

    /// The codec queued the response to the request passed on. Returns whether held bytes may now
    /// be processed. A connection the request or its response ends is the codec's to finish, as
    /// it would without this handler.
    mutating func responseQueued(closesConnection: Bool) -> Bool {
        switch mode {
        case let .awaitingResponse(keepsAlive):
            mode = keepsAlive && !closesConnection ? .answering : .handedOver
            return true
        case let .forwardingBody(remaining, _, keepsAlive):
            mode = .forwardingBody(remaining: remaining, answered: true, keepsAlive: keepsAlive && !closesConnection)
            return false
        case .answering, .handedOver, .closing:
            return false
        }
    }

    /// The client sent all it will: what is held goes to the codec before the end does, or the
    /// codec (which has seen the end) would drop it.
    mutating func inputClosed(holdsBytes: Bool) {
        switch mode {
        case .forwardingBody, .awaitingResponse: mode = .handedOver
        case .answering where holdsBytes: mode = .handedOver
        case .answering, .handedOver, .closing: break
        }
    }

    /// The server is shutting down; returns false when it already was. Nothing more is answered
    /// here, and what the client still sends at a request boundary is dropped with the connection.
    mutating func quiesce() -> Bool {
        guard !isQuiescing else { return false }
        isQuiescing = true
        if mode == .answering { mode = .closing }
        return true
    }
}
