import TesseraCore

/// A job's result, or one part of it, that another job reads: declared in the reading stage's
/// `Input`, so the engine makes it a dependency and hashes it into the key (`DeclaredJob`).
///
/// A job cannot read an upstream result its input does not hold, so what it reads and what it
/// waits for are one list. One type for every "which upstream" a stage has: a whole result
/// (`Upstream(ref)`) or one part of it (the 2x of a downscale pass), named by `part`.
public struct Upstream<Value: Sendable>: Sendable, Encodable {
    public let key: JobKey
    /// Which part of the upstream result is read; empty for all of it. Hashed into the key.
    public let part: String
    /// How the part is taken from the upstream's result; nil for the whole result, which is read
    /// by the key alone: a closure here is an allocation for each of the 400,000 whole results a
    /// gather of 100,000 tiny masters declares, held from planning until it runs (issue 54, item 14).
    private let pick: (@Sendable (JobContext) throws(TesseraError) -> Value?)?

    /// The whole result of `job`.
    public init(_ job: JobRef<Value>) {
        key = job.key
        part = ""
        pick = nil
    }

    /// The part `part` of `job`'s result, which `select` takes from it (nil: the result lacks it).
    public init<Whole>(_ job: JobRef<Whole>, part: String, _ select: @escaping @Sendable (Whole) -> Value?) {
        key = job.key
        self.part = part
        pick = { context throws(TesseraError) in select(try context.input(job)) }
    }

    /// The value, which must have been made: a failed upstream fails the reading job.
    public func value(in context: JobContext) throws(TesseraError) -> Value {
        guard let value = try picked(in: context) else {
            throw TesseraError(.internalFailure, reason: "job \(key) made no \(part.isEmpty ? "result" : part)")
        }
        return value
    }

    /// The value, or nil when the upstream failed: how an aggregating job gathers what was made.
    public func made(in context: JobContext) -> Value? {
        (try? picked(in: context)) ?? nil
    }

    private func picked(in context: JobContext) throws(TesseraError) -> Value? {
        guard let pick else { return try context.input(JobRef<Value>(key)) }
        return try pick(context)
    }

    public func encode(to encoder: any Encoder) throws {
        DeclaredInputs.note(key, in: encoder)
        var container = encoder.singleValueContainer()
        try container.encode(part.isEmpty ? key.hash.hex : "\(key.hash.hex)#\(part)")
    }
}

/// A job that must finish before the reading job starts, whose result is not read, only whether
/// it succeeded (a bundle leaves out a variant that failed).
public struct Prerequisite: Sendable, Hashable, Encodable {
    public let key: JobKey

    public init(_ key: JobKey) { self.key = key }

    public func succeeded(in context: JobContext) -> Bool { context.succeeded(key) }

    public func encode(to encoder: any Encoder) throws {
        DeclaredInputs.note(key, in: encoder)
        var container = encoder.singleValueContainer()
        try container.encode(key.hash.hex)
    }
}
