import Dispatch
import Foundation
import TesseraCore

/// Pulls bands of rows from a source and hands each row to a consumer, until the source ends.
///
/// With `overlapped`, a second thread decodes the next band while the caller's thread filters
/// the current one (two buffers, handed back and forth under a condition variable): a single
/// huge image then keeps both cores busy. The source is only ever touched by one thread at a
/// time, and rows reach the consumer in order, so the output does not change.
struct BandFeeder {
    let source: any RowSource
    let bandRows: Int
    var overlapped = ProcessInfo.processInfo.activeProcessorCount > 1

    func feed(checkpoint: () throws(TesseraError) -> Void,
              _ consume: (UnsafePointer<UInt8>) -> Void) throws(TesseraError) {
        let stride = source.width * 4
        let buffers = (0..<(overlapped ? 2 : 1)).map { _ in
            UnsafeMutableRawBufferPointer.allocate(byteCount: bandRows * stride, alignment: 64)
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        guard overlapped else {
            while let count = try read(into: buffers[0], stride: stride) {
                try checkpoint()
                deliver(buffers[0], count: count, stride: stride, consume)
            }
            return
        }
        let handoff = Handoff(free: Array(buffers.indices))
        let producer = UncheckedSendable((self, buffers))
        let finished = DispatchSemaphore(value: 0)
        // A thread of its own, not Dispatch's pool: the caller is a pool thread that now blocks
        // waiting for bands, and with every pool thread so blocked the producer queued behind
        // them waited for Dispatch to notice and add a thread (tens of milliseconds per image).
        let thread = Thread {
            let (feeder, buffers) = producer.value
            defer { finished.signal() }
            while let index = handoff.takeFree() {
                switch Result(catching: { () throws(TesseraError) in try feeder.read(into: buffers[index], stride: stride) }) {
                case .success(let count?):
                    handoff.putFilled(index, count: count)
                case .success(nil):
                    handoff.finish(error: nil)
                    return
                case .failure(let error):
                    handoff.finish(error: error)
                    return
                }
            }
        }
        thread.name = "tessera.band-feeder"
        thread.start()
        defer { finished.wait() }
        do {
            while let (index, count) = try handoff.takeFilled() {
                try checkpoint()
                deliver(buffers[index], count: count, stride: stride, consume)
                handoff.putFree(index)
            }
        } catch {
            handoff.stop()
            throw error
        }
    }

    /// Reads the next band; nil once the source has ended (and its tail has been checked).
    fileprivate func read(into buffer: UnsafeMutableRawBufferPointer, stride: Int) throws(TesseraError) -> Int? {
        guard source.rowsRead < source.height else {
            try source.finish()
            return nil
        }
        let count = try source.readRows(into: buffer, stride: stride, count: bandRows)
        guard count > 0 else {
            throw TesseraError(.invalidInput, origin: .downscale,
                               reason: "the image ended after \(source.rowsRead) of \(source.height) rows")
        }
        return count
    }

    private func deliver(_ buffer: UnsafeMutableRawBufferPointer, count: Int, stride: Int,
                         _ consume: (UnsafePointer<UInt8>) -> Void) {
        let base = UnsafePointer(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
        for row in 0..<count { consume(base + row * stride) }
    }
}

/// Passes band buffers between the decoding thread and the filtering thread, in order.
private final class Handoff: @unchecked Sendable {
    // @unchecked: every field is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var free: [Int]
    private var filled: [(index: Int, count: Int)] = []
    private var ended = false
    private var stopped = false
    private var failure: TesseraError?

    init(free: [Int]) { self.free = free }

    func takeFree() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty && !stopped { condition.wait() }
        return stopped ? nil : free.removeFirst()
    }

    func putFilled(_ index: Int, count: Int) {
        condition.lock()
        filled.append((index, count))
        condition.broadcast()
        condition.unlock()
    }

    func putFree(_ index: Int) {
        condition.lock()
        free.append(index)
        condition.broadcast()
        condition.unlock()
    }

    func finish(error: TesseraError?) {
        condition.lock()
        ended = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next filled band, nil at the end; throws the producer's error once its bands are used.
    func takeFilled() throws(TesseraError) -> (Int, Int)? {
        condition.lock()
        defer { condition.unlock() }
        while filled.isEmpty && !ended { condition.wait() }
        if !filled.isEmpty { return filled.removeFirst() }
        if let failure { throw failure }
        return nil
    }

    /// The consumer gave up: release the producer.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}

/// Carries a value to another thread that is known to be its only user until handed back.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
