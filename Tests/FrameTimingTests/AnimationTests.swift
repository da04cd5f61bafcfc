import CodecFixtures
import Decoding
import Encoding
import Foundation
import FrameTiming
import Testing
import TesseraCore

/// `EXPECTED.json`: gifsicle's and webpmux's independent readings of every GIF and WebP.
struct ExpectedAnimations {
    struct Entry {
        let path: String
        let json: [String: Any]
    }

    // Read-only after first use; `[String: Any]` cannot say so itself.
    nonisolated(unsafe) static let entries: [Entry] = {
        let url = URL(fileURLWithPath: Fixtures.path("EXPECTED.json"))
        guard let data = try? Data(contentsOf: url),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let files = root["files"] as? [String: [String: Any]] else { return [] }
        return files.keys.sorted().map { Entry(path: $0, json: files[$0]!) }
    }()
}

@Suite("Animation records against gifsicle and webpmux")
struct AnimationRecordTests {
    // gifsicle lists every GIF image, so these compare image by image (`separate`).
    @Test("all 75 GIF and WebP files: canvas, frame count, raw delays, loop field, disposal agree exactly")
    func agreeWithIndependentTools() throws {
        #expect(ExpectedAnimations.entries.count == 75)
        for entry in ExpectedAnimations.entries {
            let expected = entry.json
            let warnings = expected["tool_warnings"] as? [String] ?? []
            let source = try Fixtures.source(entry.path)
            let records: AnimationRecords
            do {
                records = try ImageDecoders.animationRecords(of: source, subImages: .separate)
            } catch {
                // Only files the tools themselves flag may fail to open at all.
                #expect(!warnings.isEmpty, "\(entry.path): \(error)")
                continue
            }
            let canvas = expected["canvas"] as? [Int] ?? []
            #expect([records.canvasWidth, records.canvasHeight] == canvas, "\(entry.path) canvas")
            let frames = expected["frames"] as? [[String: Any]] ?? []
            let animated = expected["animated"] as? Bool ?? false
            if records.format == .webp && frames.isEmpty {
                #expect(records.frames.count == 1 && !animated, "\(entry.path) still WebP")
                continue
            }
            if !warnings.isEmpty {
                // A malformed file: Tessera keeps the frames it could read, never more than gifsicle's.
                #expect(records.frames.count <= frames.count + 1, "\(entry.path)")
                continue
            }
            #expect(records.frames.count == frames.count, "\(entry.path) frame count")
            for (index, frame) in zip(records.frames, frames).enumerated() {
                let label = "\(entry.path) frame \(index)"
                if records.format == .gif {
                    #expect(frame.0.rawDelay == frame.1["delay_cs"] as? Int, "\(label) delay")
                    #expect(frame.0.disposal == frame.1["disposal"] as? String, "\(label) disposal")
                } else {
                    #expect(frame.0.rawDelay == frame.1["duration_ms"] as? Int, "\(label) duration")
                    #expect(frame.0.disposal == frame.1["dispose"] as? String, "\(label) dispose")
                    #expect(frame.0.blends == frame.1["blend_alpha"] as? Bool, "\(label) blend")
                }
                #expect([frame.0.x, frame.0.y, frame.0.width, frame.0.height]
                        == [frame.1["x"], frame.1["y"], frame.1["width"], frame.1["height"]].compactMap { $0 as? Int },
                        "\(label) geometry")
            }
            let loop = expected["loop"] as? [String: Any]
            if records.format == .gif, loop?["netscape_loop_extension"] as? Bool == false {
                #expect(records.loopField == nil, "\(entry.path) loop")
            } else if let field = loop?["loop_count_field"] as? Int {
                #expect(records.loopField == field, "\(entry.path) loop")
            }
        }
    }

    @Test("frame readers composite every frame of every animation without error")
    func framesStream() throws {
        for entry in ExpectedAnimations.entries where (entry.json["tool_warnings"] as? [String] ?? []).isEmpty {
            if entry.path.hasSuffix("issue_2811.gif") {
                // Its LZW code size is 11: timing reads fine (above), pixels cannot be decoded.
                let error = try #require(failure { try ImageDecoders.frames(of: try Fixtures.source(entry.path)) })
                #expect(error.reason.contains("declares LZW code size 11; GIF allows 2 to 8"))
                continue
            }
            let reader = try ImageDecoders.frames(of: try Fixtures.source(entry.path),
                                                  options: DecodeOptions(subImages: .separate))
            var count = 0
            while let frame = try reader.nextFrame() {
                #expect(frame.index == count)
                #expect(frame.canvas.width == reader.info.width)
                count += 1
            }
            let expected = max(1, (entry.json["frames"] as? [Any])?.count ?? 1)
            #expect(count == expected, "\(entry.path)")
        }
    }

    @Test("animated WebP frames match each frame decoded on its own")
    func webpReferenceFrames() throws {
        for (name, count) in [("random_lossless", 3), ("random_lossy", 4)] {
            let reader = try ImageDecoders.frames(of: try Fixtures.source("animated/image-webp/\(name).webp"))
            for index in 1...count {
                let frame = try #require(try reader.nextFrame())
                let reference = try Fixtures.decode("animated/image-webp/reference/\(name)-\(index).png").bitmap
                // Frame 1 stands alone; later frames are alpha-blended onto it (their ANMF blend
                // bit is set), so they differ slightly from the frame decoded on its own.
                let difference = meanAbsoluteDifference(frame.canvas, reference)
                if index == 1 && name.hasSuffix("lossless") {
                    #expect(frame.canvas.pixels == reference.pixels, "\(name) frame 1")
                } else {
                    #expect(difference < 2, "\(name) frame \(index): \(difference)")
                }
            }
        }
    }
}

@Suite("Frame timing")
struct FrameTimingTests {
    @Test("TestImage.gif: 5 × 120 ms gives tick 120 and one slot each, looping forever")
    func testImage() throws {
        let records = try ImageDecoders.animationRecords(of: try Fixtures.source("animated/sdwebimage/TestImage.gif"))
        let timing = try FrameTiming(delaysMs: records.frames.map(\.delayMs))
        #expect(timing.tickMs == 120 && timing.frames.map(\.repeats) == [1, 1, 1, 1, 1] && timing.totalMs == 600)
        #expect(timing.sequence == [0, 1, 2, 3, 4])
        #expect(LoopSemantics.plays(loopField: records.loopField, isGIF: true) == nil)
    }

    @Test("TestLoopCount.gif has no loop block and plays once; loop field N plays N + 1 for GIF, N for WebP")
    func loops() throws {
        let records = try ImageDecoders.animationRecords(of: try Fixtures.source("animated/sdwebimage/TestLoopCount.gif"))
        #expect(records.loopField == nil)
        #expect(LoopSemantics.plays(loopField: records.loopField, isGIF: true) == 1)
        #expect(LoopSemantics.plays(loopField: 3, isGIF: true) == 4)
        #expect(LoopSemantics.plays(loopField: 3, isGIF: false) == 3)
        #expect(LoopSemantics.plays(loopField: 0, isGIF: false) == nil)
    }

    @Test("SDWebImage's 333/334 ms fixture stays within the slot cap, with a stated error")
    func slotCap() throws {
        let records = try ImageDecoders.animationRecords(
            of: try Fixtures.source("animated/sdwebimage/TestAnimatedImageMemory.webp"))
        let exact = records.frames.map(\.delayMs)
        #expect(exact.reduce(0, +) == 5333)
        let timing = try FrameTiming(delaysMs: exact)
        #expect(timing.quantised && timing.tickMs == 10)
        #expect(timing.sequence.count == 533 && timing.sequence.count <= 1000)
        #expect(timing.maxErrorMs == 3 && timing.droppedFrames == 0)
        let tight = try FrameTiming(delaysMs: exact, maxSlots: 16)
        #expect(tight.sequence.count <= 16 && tight.tickMs == 330)
        #expect(tight.maxErrorMs <= 170)
    }

    @Test("GCD expansion: 3 s and 1 s become A, A, A, B over 4 s; integer delays never collapse to 1 ms")
    func gcdExpansion() throws {
        let timing = try FrameTiming(delaysMs: [3000, 1000])
        #expect(timing.tickMs == 1000 && timing.sequence == [0, 0, 0, 1] && timing.sequenceDurationMs == 4000)
        // SDWebImage read 30 ms as 29 ms from a float and got a 1 ms tick; integers keep 10 ms.
        #expect(try FrameTiming(delaysMs: [30, 50, 70]).tickMs == 10)
    }

    @Test("clamp policies: browser plays ≤ 10 ms as 100 ms, none keeps raw, min:N raises")
    func clamps() throws {
        #expect(try FrameTiming(delaysMs: [0, 10, 20]).frames.map(\.durationMs) == [100, 100, 20])
        #expect(try FrameTiming(delaysMs: [0, 10, 20], clamp: .none).frames.map(\.durationMs) == [0, 10, 20])
        #expect(try FrameTiming(delaysMs: [0, 10, 50], clamp: .minimum(20)).frames.map(\.durationMs) == [20, 20, 50])
        #expect(ClampPolicy(parsing: "min:30") == .minimum(30) && ClampPolicy(parsing: "fast") == nil)
        let zeros = try FrameTiming(delaysMs: [0, 0], clamp: .none)
        #expect(zeros.sequence == [0, 1] && zeros.totalMs == 0)
    }

    @Test("quantisation never exceeds the cap and may drop frames shorter than half a tick")
    func quantisationDropsTinyFrames() throws {
        let timing = try FrameTiming(delaysMs: [1000, 20, 1000], clamp: .none, maxSlots: 10)
        #expect(timing.sequence.count <= 10)
        #expect(timing.tickMs == 200)
        #expect(timing.droppedFrames == 1)
    }
}

@Suite("Animated encoders")
struct AnimatedEncoderTests {
    /// Decodes every frame of `path` and re-encodes it with `encoder`.
    private func reencode(_ path: String, _ make: (Int, Int) throws -> any AnimatedImageEncoder) throws -> [UInt8] {
        let reader = try ImageDecoders.frames(of: try Fixtures.source(path))
        let encoder = try make(reader.info.width, reader.info.height)
        while let frame = try reader.nextFrame() { try encoder.add(frame.canvas, durationMs: frame.delayMs) }
        return try encoder.finish()
    }

    @Test("re-encoded GIFs keep every frame's delay and the loop field", arguments: [
        ("animated/pillow/dispose_bgnd_transparency.gif", AnimationPlays.forever),
        ("animated/sdwebimage/TestLoopCount.gif", .times(1)),
        ("animated/pillow/duplicate_number_of_loops.gif", .times(4)),
    ])
    func gifRoundTrip(path: String, plays: AnimationPlays) throws {
        let original = try ImageDecoders.animationRecords(of: try Fixtures.source(path))
        let bytes = try reencode(path) { try AnimatedGIFEncoder(width: $0, height: $1, plays: plays) }
        let back = try ImageDecoders.animationRecords(of: SourceBytes(bytes: bytes, path: "back.gif"))
        #expect(back.frames.map(\.delayMs) == original.frames.map(\.delayMs))
        #expect(back.loopField == original.loopField)
        #expect(LoopSemantics.plays(loopField: back.loopField, isGIF: true)
                == LoopSemantics.plays(loopField: original.loopField, isGIF: true))
        // The same frames always give the same bytes.
        #expect(try reencode(path) { try AnimatedGIFEncoder(width: $0, height: $1, plays: plays) } == bytes)
    }

    @Test("re-encoded animated WebP keeps the total duration and the loop count, and decodes close to the source")
    func webpRoundTrip() throws {
        let path = "animated/sdwebimage/TestAnimatedImageMemory.webp"
        let original = try ImageDecoders.animationRecords(of: try Fixtures.source(path))
        let bytes = try reencode(path) { try AnimatedWebPEncoder(width: $0, height: $1, plays: .forever, quality: 90) }
        let back = try ImageDecoders.animationRecords(of: SourceBytes(bytes: bytes, path: "back.webp"))
        #expect(back.loopField == 0)
        #expect(back.frames.map(\.delayMs).reduce(0, +) == original.frames.map(\.delayMs).reduce(0, +))
        #expect(back.frames.map(\.delayMs) == original.frames.map(\.delayMs))
    }

    @Test("a GIF frame with few colours is quantised losslessly")
    func quantiserExactForFewColours() throws {
        let path = "animated/pillow/dispose_none.gif"
        let reader = try ImageDecoders.frames(of: try Fixtures.source(path))
        let first = try #require(try reader.nextFrame()).canvas
        let encoder = try AnimatedGIFEncoder(width: first.width, height: first.height, plays: .forever)
        try encoder.add(first, durationMs: 100)
        let back = try ImageDecoders.decode(SourceBytes(bytes: try encoder.finish(), path: "one.gif")).bitmap
        #expect(back.pixels == first.pixels)
    }
}

@Suite("GIF compositing against Pillow")
struct GIFCompositingTests {
    /// Pixels that differ between two RGBA canvases, treating all fully transparent pixels as equal.
    private func differingPixels(_ a: Bitmap, _ b: Bitmap) -> Int {
        var count = 0
        for index in stride(from: 0, to: a.pixels.count, by: 4) {
            let alphaA = a.pixels[index + 3], alphaB = b.pixels[index + 3]
            if alphaA == 0 && alphaB == 0 { continue }
            if a.pixels[index..<index + 4] != b.pixels[index..<index + 4] { count += 1 }
        }
        return count
    }

    @Test("restore-to-background clears to transparent, as browsers do, where Pillow paints an opaque colour")
    func backgroundDisposal() throws {
        let reader = try ImageDecoders.frames(of: try Fixtures.source("animated/pillow/dispose_bgnd.gif"))
        var index = 0
        while let frame = try reader.nextFrame() {
            let reference = try ImageDecoders.decode(
                try SourceBytes(contentsOfFile: "\(Fixtures.corpus)/../generated/pillow-frames/dispose_bgnd-\(index).png")).bitmap
            for pixel in stride(from: 0, to: frame.canvas.pixels.count, by: 4)
            where frame.canvas.pixels[pixel..<pixel + 4] != reference.pixels[pixel..<pixel + 4] {
                // Every difference: cleared to transparent here, painted opaque by Pillow.
                #expect(frame.canvas.pixels[pixel + 3] == 0)
                #expect(reference.pixels[pixel + 3] == 255)
            }
            index += 1
        }
        #expect(index == 5)
    }

    @Test("disposal none and previous, transparency and clipping composite exactly as Pillow does", arguments: [
        "dispose_none", "dispose_prev", "dispose_bgnd_transparency", "transparent_dispose",
        "dispose_prev_first_frame", "missing_background", "different_transparency",
    ])
    func matchesPillow(name: String) throws {
        // Pillow shows every image as a frame, as `separate` does.
        let reader = try ImageDecoders.frames(of: try Fixtures.source("animated/pillow/\(name).gif"),
                                              options: DecodeOptions(subImages: .separate))
        var index = 0
        while let frame = try reader.nextFrame() {
            let reference = try ImageDecoders.decode(
                try SourceBytes(contentsOfFile: "\(Fixtures.corpus)/../generated/pillow-frames/\(name)-\(index).png")).bitmap
            #expect(differingPixels(frame.canvas, reference) == 0, "\(name) frame \(index)")
            index += 1
        }
        #expect(index > 0)
    }
}

@Suite("GIF sub-images")
struct GIFSubImageTests {
    private func rgba(_ indices: [UInt8]) -> [UInt8] {
        indices.flatMap { Array(HandMadeGIF.palette[Int($0) * 3..<Int($0) * 3 + 3]) + [255] }
    }

    /// Every composited frame, streamed from bytes and from a file, which must agree.
    private func frames(_ gif: HandMadeGIF, _ policy: SubImagePolicy) throws -> [AnimationFrame] {
        let source = SourceBytes(bytes: gif.bytes, path: "hand-made.gif")
        let reader = try ImageDecoders.frames(of: source, options: DecodeOptions(subImages: policy))
        var frames: [AnimationFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sub-images-\(UUID()).gif").path
        try Data(gif.bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let streamed = try ImageDecoders.frames(fileAt: path, options: DecodeOptions(subImages: policy))
        var count = 0
        while let frame = try streamed.nextFrame() {
            #expect(frame.canvas.pixels == frames[count].canvas.pixels && frame.delayMs == frames[count].delayMs)
            count += 1
        }
        #expect(count == frames.count)
        return frames
    }

    @Test("animation-multi-image (with and without explicit zero delays): merge gives 4 frames of 500 ms, as gdk-pixbuf's suite expects",
          arguments: [false, true])
    func multiImageMerges(explicitZero: Bool) throws {
        let gif = HandMadeGIF.multiImage(explicitZero: explicitZero)
        let source = SourceBytes(bytes: gif.bytes, path: "multi.gif")
        let records = try ImageDecoders.animationRecords(of: source)
        #expect(records.frames.map(\.delayMs) == [500, 500, 500, 500])
        #expect(records.frames.map(\.subImages) == [2, 2, 2, 2])
        #expect(records.frames.allSatisfy { [$0.x, $0.y, $0.width, $0.height] == [0, 0, 2, 2] })
        let merged = try frames(gif, .merge)
        #expect(merged.map(\.delayMs) == [500, 500, 500, 500] && merged.map(\.index) == [0, 1, 2, 3])
        #expect(merged.map(\.canvas.pixels) == [
            rgba([0, 0, 2, 2]), rgba([2, 2, 0, 0]), rgba([1, 1, 3, 3]), rgba([3, 3, 1, 1]),
        ])
        let timing = try FrameTiming(delaysMs: records.frames.map(\.delayMs))
        #expect(timing.sequence == [0, 1, 2, 3] && timing.tickMs == 500 && timing.totalMs == 2000)
        #expect(try GIFDecoder().probe(source).frameCount == 4)
    }

    @Test("separate keeps each image a frame, as browsers do: 8 frames, the zero delays played as 100 ms")
    func multiImageSeparate() throws {
        let gif = HandMadeGIF.multiImage(explicitZero: false)
        let records = try ImageDecoders.animationRecords(of: SourceBytes(bytes: gif.bytes, path: "multi.gif"),
                                                         subImages: .separate)
        #expect(records.frames.map(\.delayMs) == [0, 500, 0, 500, 0, 500, 0, 500])
        let separate = try frames(gif, .separate)
        #expect(separate.count == 8)
        // The first image alone: top row drawn, bottom row still transparent.
        #expect(separate[0].canvas.pixels == rgba([0, 0]) + [0, 0, 0, 0, 0, 0, 0, 0])
        let timing = try FrameTiming(delaysMs: records.frames.map(\.delayMs))
        #expect(timing.totalMs == 2400 && timing.frames.map(\.durationMs) == [100, 500, 100, 500, 100, 500, 100, 500])
    }

    @Test("dispose-restore-previous: the black background merges with the first dot; 4 frames of 500 ms")
    func restorePrevious() throws {
        let gif = HandMadeGIF.disposeRestorePrevious()
        let records = try ImageDecoders.animationRecords(of: SourceBytes(bytes: gif.bytes, path: "restore.gif"))
        #expect(records.frames.map(\.delayMs) == [500, 500, 500, 500])
        #expect(records.frames.map(\.subImages) == [2, 1, 1, 1])
        let merged = try frames(gif, .merge)
        #expect(merged.map(\.canvas.pixels) == [
            rgba([1, 0, 0, 0]), rgba([0, 1, 0, 0]), rgba([0, 0, 0, 1]), rgba([0, 0, 1, 0]),
        ])
        #expect(try frames(gif, .separate).count == 5)
    }

    @Test("a GIF where no image has a delay keeps every image a frame under merge")
    func noDelaysStayAnimated() throws {
        let gif = HandMadeGIF.noDelays()
        let records = try ImageDecoders.animationRecords(of: SourceBytes(bytes: gif.bytes, path: "fast.gif"))
        #expect(records.frames.count == 4 && records.frames.allSatisfy { $0.subImages == 1 })
        #expect(try frames(gif, .merge).map(\.canvas.pixels) == [rgba([0]), rgba([1]), rgba([2]), rgba([3])])
    }

    @Test("images without a delay at the end of the file form the last frame")
    func trailingImagesAreTheLastFrame() throws {
        var gif = HandMadeGIF.multiImage(explicitZero: false)
        gif.images.removeLast()
        let records = try ImageDecoders.animationRecords(of: SourceBytes(bytes: gif.bytes, path: "tail.gif"))
        #expect(records.frames.map(\.delayMs) == [500, 500, 500, 0])
        let merged = try frames(gif, .merge)
        #expect(merged.count == 4 && merged[3].subImages == 1)
    }
}

@Suite("Frame timing limits")
struct FrameTimingLimitTests {
    @Test("min:N is bounded to one hour: larger N is refused, and a floor built directly is held there")
    func clampBound() throws {
        #expect(ClampPolicy(parsing: "min:3600000") == .minimum(3_600_000))
        #expect(ClampPolicy(parsing: "min:3600001") == nil)
        #expect(ClampPolicy(parsing: "min:1000000000000") == nil)
        #expect(ClampPolicy(parsing: "min:9223372036854775807") == nil)
        // This overflowed summing the durations (FrameTiming.swift:35) before.
        let timing = try FrameTiming(delaysMs: [0, 0, 0], clamp: .minimum(.max))
        #expect(timing.frames.map(\.durationMs) == [3_600_000, 3_600_000, 3_600_000] && timing.totalMs == 10_800_000)
    }

    @Test("durations adding up past Int.max are an error, not a trap")
    func overflowIsAnError() {
        let error = failure { try FrameTiming(delaysMs: [.max, .max], clamp: .none) }
        #expect(error?.kind == .limitExceeded && error?.origin == .timing)
    }

    @Test("quantising a total of hours finds the tick at once (it used to step 10 ms at a time)",
          .timeLimit(.minutes(1)))
    func hugeTotalsQuantiseQuickly() throws {
        let delays = [1_000_000_000_000_001, 1_000_000_000_000_000, 7]
        let timing = try FrameTiming(delaysMs: delays, clamp: .none, maxSlots: 1000)
        #expect(timing.quantised && timing.sequence.count <= 1000)
        #expect(timing.tickMs % 10 == 0)
        // The smallest such tick: 10 ms less would not fit.
        #expect((timing.totalMs + (timing.tickMs - 10) / 2) / (timing.tickMs - 10) > 1000)
        #expect(try FrameTiming(delaysMs: [3_600_000, 1, 3_600_000], clamp: .none, maxSlots: 10).tickMs == 685_720)
    }

    @Test("max-slots holds when every delay is 0: frames evenly spread, the rest dropped")
    func allZeroDelaysRespectTheCap() throws {
        let one = try FrameTiming(delaysMs: Array(repeating: 0, count: 1_000_000), clamp: .none, maxSlots: 1)
        #expect(one.sequence == [0] && one.droppedFrames == 999_999 && one.quantised)
        let three = try FrameTiming(delaysMs: Array(repeating: 0, count: 1000), clamp: .none, maxSlots: 3)
        #expect(three.sequence == [0, 333, 666])
        #expect(try FrameTiming(delaysMs: [0, 0], clamp: .none, maxSlots: 1_000_000_000).sequence == [0, 1])
    }
}
