import Pipeline
import ArgumentParser
import BuildOptions
import Decoding
import FrameTiming
import Foundation
import TesseraCore

private typealias Timing = OptionTable.Timing

/// `tessera timing FILE...`: how an animation plays on iOS, as frames, repeats and one duration.
struct TimingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timing",
        abstract: "Compute an animation's frame timing for iOS by the greatest common divisor of its delays.",
        discussion: """
        Delays are read as integers in the file's unit (GIF centiseconds, WebP milliseconds). \
        --clamp browser plays delays of 10 ms or less as 100 ms, as browsers and ImageIO do. When the \
        repeats would exceed --max-slots, time is quantised to the smallest multiple of 10 ms that \
        fits, and the largest error is reported. GIF loop field N plays N + 1 times (no field: once; \
        0: forever); WebP's plays N times. --sub-images merge (default) draws a GIF image without a \
        delay together with the next one as one frame, as GIF89a says; separate shows every image, \
        as browsers do.
        """)

    @Argument(help: "GIF or WebP files.")
    var files: [String]

    @OptionGroup var result: ResultOutput

    @Option(name: Timing.clamp.long, help: Timing.clamp.argumentHelp, transform: Timing.clamp.argument)
    var clamp = Timing.clamp.defaultValue

    @Option(name: Timing.maxSlots.long, help: Timing.maxSlots.argumentHelp, transform: Timing.maxSlots.argument)
    var maxSlots = Timing.maxSlots.defaultValue

    @Option(name: Timing.subImages.long, help: Timing.subImages.argumentHelp, transform: Timing.subImages.argument)
    var subImages = Timing.subImages.defaultValue

    /// The timing stage's options as a pipeline's `timing:` with the same values would make them.
    var section: TimingStageOptions {
        var section = TimingStageOptions()
        section.set(Timing.clamp, clamp)
        section.set(Timing.maxSlots, maxSlots)
        section.set(Timing.subImages, subImages)
        return section
    }

    func run() throws {
        let options = section
        var reports: [TimingReport] = []
        for path in files {
            do {
                let records = try ImageDecoders.animationRecords(of: try SourceBytes(contentsOfFile: path),
                                                                 subImages: options.subImages)
                reports.append(TimingReport(path: path, records: records,
                                            timing: try FrameTiming(delaysMs: records.frames.map(\.delayMs),
                                                                    clamp: options.clamp, maxSlots: options.maxSlots)))
            } catch {
                reports.append(TimingReport(path: path, error: TesseraError.wrapping(error, file: path).description))
            }
        }
        if !result.json {
            for report in reports { if let error = report.error { printError("error: \(error)") } }
        }
        try result.emit(reports, under: "files") { reports.map(\.text).joined() }
        if reports.contains(where: { $0.error != nil }) { throw ExitCode(1) }
    }
}

/// One file's timing, as `tessera timing` prints it.
struct TimingReport: Encodable {
    struct Frame: Encodable {
        let delayMs: Int
        let durationMs: Int
        let repeats: Int
        /// GIF images drawn for this frame.
        let subImages: Int
    }

    var path: String
    var frames: [Frame]?
    var tickMs: Int?
    var totalMs: Int?
    var sequenceDurationMs: Int?
    /// The loop field as stored; absent when the file has none.
    var loopCount: Int?
    /// How many times it plays; absent means forever.
    var plays: Int?
    var forever: Bool?
    var sequence: [Int]?
    var quantised: Bool?
    var maxErrorMs: Int?
    var droppedFrames: Int?
    var truncation: String?
    var error: String?

    init(path: String, error: String) {
        self.path = path
        self.error = error
    }

    init(path: String, records: AnimationRecords, timing: FrameTiming) {
        self.path = path
        frames = zip(timing.frames, records.frames).map {
            Frame(delayMs: $0.delayMs, durationMs: $0.durationMs, repeats: $0.repeats, subImages: $1.subImages)
        }
        tickMs = timing.tickMs
        totalMs = timing.totalMs
        sequenceDurationMs = timing.sequenceDurationMs
        loopCount = records.loopField
        plays = LoopSemantics.plays(loopField: records.loopField, isGIF: records.format == .gif)
        forever = plays == nil
        sequence = timing.sequence
        quantised = timing.quantised
        maxErrorMs = timing.maxErrorMs
        droppedFrames = timing.droppedFrames
        truncation = records.truncation
    }

    /// The text lines of a file that could be read (an error goes to standard error instead).
    var text: String {
        if error != nil { return "" }
        let loop = loopCount.map { "loop field \($0)" } ?? "no loop field"
        let playing = plays.map { "plays \($0)×" } ?? "plays forever"
        var lines = ["\(path): \(frames?.count ?? 0) frames, tick \(tickMs ?? 0) ms, total \(totalMs ?? 0) ms, \(sequence?.count ?? 0) slots, \(loop), \(playing)"]
        if quantised == true {
            lines.append("  quantised to \(tickMs ?? 0) ms: largest error \(maxErrorMs ?? 0) ms, \(droppedFrames ?? 0) frames dropped")
        }
        let repeats = (frames ?? []).map {
            "\($0.durationMs)ms×\($0.repeats)" + ($0.subImages > 1 ? " (\($0.subImages) images)" : "")
        }.joined(separator: " ")
        lines.append("  frames: \(repeats)")
        if let truncation { lines.append("  warning: \(truncation)") }
        return lines.map { $0 + "\n" }.joined()
    }
}
