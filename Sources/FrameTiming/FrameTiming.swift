/// An animation's timing expressed the way iOS plays animations: a list of frames and one total
/// duration (`UIImage.animatedImage(with:duration:)`), per-frame delays becoming repeats.
///
/// Exact when possible: the tick is the greatest common divisor of the (clamped, integer
/// millisecond) durations and frame i is shown `duration[i] / tick` times. When the repeats would
/// exceed `maxSlots`, time is quantised instead: the tick becomes the smallest multiple of 10 ms
/// for which the whole animation fits, and each frame boundary is rounded to the nearest tick of
/// its exact time, so errors never accumulate: every frame starts within half a tick of when it
/// should, the total stays within half a tick, and a frame shorter than that may be dropped
/// (`droppedFrames`). The largest boundary error is reported.
public struct FrameTiming: Sendable, Equatable {
    /// Per frame: the delay as read (ms), the duration played (ms, after clamping), and repeats.
    public struct Frame: Sendable, Equatable {
        public var delayMs: Int
        public var durationMs: Int
        public var repeats: Int
    }

    public var frames: [Frame]
    public var tickMs: Int
    /// Sum of the played durations, before any quantisation.
    public var totalMs: Int
    /// `sequence.count × tickMs`: the duration handed to iOS.
    public var sequenceDurationMs: Int
    /// Frame indices in play order, each repeated: what goes to `animatedImage(with:duration:)`.
    public var sequence: [Int]
    /// True when the slot cap forced a coarser tick than the exact GCD.
    public var quantised: Bool
    /// The largest difference, in ms, between when a frame starts in `sequence` and when it should.
    public var maxErrorMs: Int
    public var droppedFrames: Int

    public init(delaysMs: [Int], clamp: ClampPolicy = .browser, maxSlots: Int = 1000) {
        let durations = delaysMs.map { clamp.duration(forDelay: $0) }
        let totalMs = durations.reduce(0, +)
        let cap = max(1, maxSlots)
        let gcd = durations.reduce(0) { Self.gcd($0, $1) }
        if gcd > 0, totalMs / gcd <= cap {
            let repeats = durations.map { $0 / gcd }
            self.init(delays: delaysMs, durations: durations, repeats: repeats, tick: gcd, total: totalMs,
                      quantised: false, maxError: 0)
            return
        }
        if totalMs == 0 {
            // Every duration is 0 (only possible with clamping off): one slot each, no time.
            self.init(delays: delaysMs, durations: durations, repeats: durations.map { _ in 1 }, tick: 0,
                      total: 0, quantised: false, maxError: 0)
            return
        }
        // Smallest multiple of 10 ms whose slot count fits the cap.
        var tick = 10
        while Self.roundedDivide(totalMs, tick) > cap { tick += 10 }
        var repeats: [Int] = []
        var maxError = 0
        var start = 0
        var previousSlot = 0
        for duration in durations {
            let end = start + duration
            let slot = Self.roundedDivide(end, tick)
            repeats.append(slot - previousSlot)
            maxError = max(maxError, abs(slot * tick - end))
            previousSlot = slot
            start = end
        }
        self.init(delays: delaysMs, durations: durations, repeats: repeats, tick: tick, total: totalMs,
                  quantised: true, maxError: maxError)
    }

    private init(delays: [Int], durations: [Int], repeats: [Int], tick: Int, total: Int, quantised: Bool,
                 maxError: Int) {
        frames = zip(zip(delays, durations), repeats).map { Frame(delayMs: $0.0, durationMs: $0.1, repeats: $1) }
        tickMs = tick
        totalMs = total
        sequence = repeats.enumerated().flatMap { index, count in Array(repeating: index, count: count) }
        sequenceDurationMs = sequence.count * tick
        self.quantised = quantised
        maxErrorMs = maxError
        droppedFrames = repeats.filter { $0 == 0 }.count
    }

    static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (abs(a), abs(b))
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    /// Round half up, for non-negative values.
    static func roundedDivide(_ value: Int, _ divisor: Int) -> Int {
        (value + divisor / 2) / divisor
    }
}
