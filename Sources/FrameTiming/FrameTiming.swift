import TesseraCore

/// An animation's timing expressed the way iOS plays animations: a list of frames and one total
/// duration (`UIImage.animatedImage(with:duration:)`), per-frame delays becoming repeats.
///
/// Exact when possible: the tick is the greatest common divisor of the (clamped, integer
/// millisecond) durations and frame i is shown `duration[i] / tick` times. When the repeats would
/// exceed `maxSlots`, time is quantised instead: the tick becomes the smallest multiple of 10 ms
/// for which the whole animation fits, and each frame boundary is rounded to the nearest tick of
/// its exact time, so errors never accumulate: every frame starts within half a tick of when it
/// should, the total stays within half a tick, and a frame shorter than that may be dropped
/// (`droppedFrames`). The largest boundary error is reported. When every duration is 0 there is
/// no time to divide: each frame gets one slot, and if that is more than the cap, the cap's worth
/// of frames evenly spread over the animation are kept.
///
/// All arithmetic is checked: a total that does not fit in an `Int` is an error, never a trap.
public struct FrameTiming: Sendable, Equatable {
    /// Per frame: the delay as read (ms), the duration played (ms, after clamping), and repeats.
    public struct Frame: Sendable, Equatable {
        public var delayMs: Int
        public var durationMs: Int
        public var repeats: Int
    }

    /// The most slots a sequence may be given: the expanded sequence is held in memory and
    /// handed to iOS frame by frame, so the cap bounds both.
    public static let maxSlotsLimit = 100_000
    /// The `max-slots` an animation gets unless told otherwise.
    public static let defaultMaxSlots = 1000

    public var frames: [Frame]
    public var tickMs: Int
    /// Sum of the played durations, before any quantisation.
    public var totalMs: Int
    /// `sequence.count × tickMs`: the duration handed to iOS.
    public var sequenceDurationMs: Int
    /// Frame indices in play order, each repeated: what goes to `animatedImage(with:duration:)`.
    public var sequence: [Int]
    /// True when the slot cap forced a coarser tick than the exact GCD (or, with every duration
    /// 0, left frames out).
    public var quantised: Bool
    /// The largest difference, in ms, between when a frame starts in `sequence` and when it should.
    public var maxErrorMs: Int
    public var droppedFrames: Int

    /// - Parameter maxSlots: the most slots `sequence` may have, held to 1…`maxSlotsLimit`.
    /// - Throws: `limitExceeded` when the durations add up past what an `Int` holds.
    public init(delaysMs: [Int], clamp: ClampPolicy = .browser, maxSlots: Int = defaultMaxSlots) throws(TesseraError) {
        let durations = delaysMs.map { clamp.duration(forDelay: $0) }
        var totalMs = 0
        for duration in durations {
            let (sum, overflow) = totalMs.addingReportingOverflow(duration)
            guard !overflow else { throw Self.tooLong("the frame durations add up past \(Int.max) ms") }
            totalMs = sum
        }
        let cap = min(max(1, maxSlots), Self.maxSlotsLimit)
        let gcd = durations.reduce(0) { Self.gcd($0, $1) }
        if gcd > 0, totalMs / gcd <= cap {
            let repeats = durations.map { $0 / gcd }
            try self.init(delays: delaysMs, durations: durations, repeats: repeats, tick: gcd, total: totalMs,
                          quantised: false, maxError: 0)
            return
        }
        if totalMs == 0 {
            // Every duration is 0 (only possible with clamping off).
            try self.init(delays: delaysMs, durations: durations, repeats: try Self.spread(durations.count, over: cap),
                          tick: 0, total: 0, quantised: durations.count > cap, maxError: 0)
            return
        }
        let tick = try Self.smallestTick(totalMs: totalMs, cap: cap)
        var repeats: [Int] = []
        repeats.reserveCapacity(durations.count)
        var maxError = 0
        var end = 0
        var previousSlot = 0
        for duration in durations {
            // Cannot overflow: every partial sum is at most `totalMs`.
            end += duration
            let slot = Self.roundedDivide(end, tick)
            repeats.append(slot - previousSlot)
            maxError = max(maxError, abs(slot * tick - end))
            previousSlot = slot
        }
        try self.init(delays: delaysMs, durations: durations, repeats: repeats, tick: tick, total: totalMs,
                      quantised: true, maxError: maxError)
    }

    private init(delays: [Int], durations: [Int], repeats: [Int], tick: Int, total: Int, quantised: Bool,
                 maxError: Int) throws(TesseraError) {
        frames = zip(zip(delays, durations), repeats).map { Frame(delayMs: $0.0, durationMs: $0.1, repeats: $1) }
        tickMs = tick
        totalMs = total
        sequence = repeats.enumerated().flatMap { index, count in Array(repeating: index, count: count) }
        let (duration, overflow) = sequence.count.multipliedReportingOverflow(by: tick)
        guard !overflow else { throw Self.tooLong("the sequence's duration does not fit in an Int") }
        sequenceDurationMs = duration
        self.quantised = quantised
        maxErrorMs = maxError
        droppedFrames = repeats.filter { $0 == 0 }.count
    }

    /// The smallest multiple of 10 ms for which `round(totalMs / tick) ≤ cap`, computed rather
    /// than searched (a search by 10 ms steps hangs on totals of hours).
    ///
    /// With `tick` even, `(total + tick / 2) / tick ≤ cap` ⇔ `2·total < (2·cap + 1)·tick`, so the
    /// tick must exceed `2·total / (2·cap + 1)`.
    static func smallestTick(totalMs: Int, cap: Int) throws(TesseraError) -> Int {
        let (twice, overflow) = totalMs.multipliedReportingOverflow(by: 2)
        guard !overflow else { throw Self.tooLong("the frame durations are too long to quantise") }
        let lowest = twice / (2 * cap + 1) + 1
        let (rounded, roundingOverflow) = ((lowest + 9) / 10).multipliedReportingOverflow(by: 10)
        guard !roundingOverflow else { throw Self.tooLong("the frame durations are too long to quantise") }
        return max(10, rounded)
    }

    /// One slot per frame, or, with more frames than slots, `cap` frames at evenly spaced
    /// positions: frame i gets the slots k with ⌊k · count / cap⌋ = i.
    static func spread(_ count: Int, over cap: Int) throws(TesseraError) -> [Int] {
        guard count > cap else { return Array(repeating: 1, count: count) }
        var repeats = Array(repeating: 0, count: count)
        for slot in 0..<cap {
            let (position, overflow) = slot.multipliedReportingOverflow(by: count)
            guard !overflow else { throw Self.tooLong("too many frames to spread over \(cap) slots") }
            repeats[position / cap] += 1
        }
        return repeats
    }

    private static func tooLong(_ reason: String) -> TesseraError {
        TesseraError(.limitExceeded, origin: .timing, reason: reason)
    }

    static func gcd(_ a: Int, _ b: Int) -> Int {
        // Durations are never negative, so `abs` cannot meet `Int.min`.
        var (a, b) = (abs(a), abs(b))
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    /// Round half up, for non-negative values whose sum with half the divisor fits (true for
    /// partial sums of a total that `smallestTick` could double).
    static func roundedDivide(_ value: Int, _ divisor: Int) -> Int {
        (value + divisor / 2) / divisor
    }
}
