import Foundation
import Synchronization
import TesseraCore

/// A renderer's separate process: a program started under `prlimit` (address space, CPU seconds)
/// with pipes for its requests and answers, and a wall-clock limit on each exchange. The PDF and
/// SVG workers speak different protocols over it; what a hostile document may cost is bounded the
/// same way for both, and a worker that died or was killed is never used again.
final class WorkerProcess: @unchecked Sendable {
    /// `prlimit` from util-linux (Debian's essential set), which sets the limits before `exec`.
    static let limiter: String? = ["/usr/bin/prlimit", "/bin/prlimit"].first { FileManager.default.isExecutableFile(atPath: $0) }
    /// The signals `prlimit`'s limits end a process with: CPU time (SIGXCPU, then SIGKILL).
    static let limitSignals: Set<Int32> = [SIGXCPU, SIGKILL]

    let addressSpace: Int
    let cpuSeconds: Int
    /// Requests served; a worker retires after `WorkerPool.requestsPerWorker`.
    var served = 0
    private(set) var isAlive = true
    private let process: Process
    private let input: Int32
    private let output: Int32
    // The parent's copies of the child's ends, and the handles, stay open with the Pipes.
    private let pipes: (Pipe, Pipe)

    /// Starts `program` under `limiter` (`prlimit`). `mergingErrors`: the program's stderr joins
    /// its answers (mutool's messages are judged with its answers); otherwise it is discarded.
    init(program: [String], limiter: String, addressSpace: Int, cpuSeconds: Int,
         mergingErrors: Bool) throws(TesseraError) {
        self.addressSpace = addressSpace
        self.cpuSeconds = cpuSeconds
        let toInput = Pipe(), fromOutput = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: limiter)
        process.arguments = ["--as=\(addressSpace)", "--cpu=\(cpuSeconds)", "--"] + program
        process.environment = [:]
        process.standardInput = toInput
        process.standardOutput = fromOutput
        process.standardError = mergingErrors ? fromOutput : FileHandle.nullDevice
        do { try process.run() } catch {
            throw TesseraError(.io, origin: .rasterize, reason: "cannot start \(program.last ?? "the renderer"): \(error)")
        }
        input = toInput.fileHandleForWriting.fileDescriptor
        output = fromOutput.fileHandleForReading.fileDescriptor
        pipes = (toInput, fromOutput)
    }

    /// Runs `exchange`, killing the process if `seconds` pass first (the exchange's reads then
    /// end). `timedOut`: the limit, not the document, ended it.
    func timed<T>(seconds: Double, _ exchange: () -> T) -> (value: T, timedOut: Bool) {
        served += 1
        let timedOut = Mutex(false)
        let deadline = DispatchWorkItem { [process] in
            if process.isRunning {
                timedOut.withLock { $0 = true }
                kill(process.processIdentifier, SIGKILL)
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: deadline)
        let value = exchange()
        deadline.cancel()
        return (value, timedOut.withLock { $0 })
    }

    /// Writes all of `bytes` to the worker's input; false when it is gone.
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBufferPointer { write(input, $0.baseAddress! + sent, $0.count - sent) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Reads what is there (at least a byte) into `buffer`; 0 at the stream's end.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = read(output, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            return max(0, count)
        }
    }

    /// Fills `buffer` exactly; false when the stream ended first.
    func receiveAll(into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var filled = 0
        while filled < buffer.count {
            let count = receive(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            guard count > 0 else { return false }
            filled += count
        }
        return true
    }

    /// Ends the process and reaps it (it also ends by itself when its input closes, as when
    /// Tessera exits).
    func stop() {
        isAlive = false
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The signal that ended the process, once it has ended by one (a crash: SIGSEGV, SIGABRT).
    var endingSignal: Int32? {
        guard !process.isRunning, process.terminationReason == .uncaughtSignal else { return nil }
        return process.terminationStatus
    }
}
