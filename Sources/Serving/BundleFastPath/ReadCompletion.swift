/// When a bundle connection tells the handlers behind it that a read is complete: only after
/// bytes were passed on (the codec and Hummingbird's handlers have nothing to do for a read that
/// brought only bundle requests; walking them cost 1.5% of a 64 KiB range's CPU time), and, for
/// bytes passed on outside a read, at once, since Hummingbird delivers what it decoded only then.
struct ReadCompletion {
    /// Whether a read is under way, whose end (`channelReadComplete`) is still to come.
    private var readPending = false
    private var passedSinceComplete = false

    mutating func readStarted() { readPending = true }

    mutating func passedOn() { passedSinceComplete = true }

    /// The read ended; returns whether to pass its end on.
    mutating func readEnded() -> Bool {
        readPending = false
        return takePassed()
    }

    /// After a pass outside any read: whether to pass a read's end on now.
    mutating func passedOutsideRead() -> Bool {
        readPending ? false : takePassed()
    }

    private mutating func takePassed() -> Bool {
        defer { passedSinceComplete = false }
        return passedSinceComplete
    }
}

/// A pass over held bytes that the pass itself can call back into (a write that changes the
/// channel's writability, a response queued at once): such a call only asks the running pass for
/// another round.
struct ReentrantPasses {
    private var running = false
    private var wanted = false

    /// Starts a pass; false when one is running (which is asked for another round instead).
    mutating func begin() -> Bool {
        guard !running else {
            wanted = true
            return false
        }
        running = true
        wanted = false
        return true
    }

    /// Whether the running pass goes round once more.
    mutating func anotherRound() -> Bool {
        defer { wanted = false }
        return wanted
    }

    /// Ends the pass, after whatever follows its rounds (a read's end passed on): a call back
    /// from that still only asks for a round, which no one runs, as before.
    mutating func end() { running = false }
}
