/// A part of a job's input that says how to run it, never what it makes (a memory estimate, the
/// name a failure gives): encoded as nothing, so it stays out of the job's key.
@propertyWrapper
public struct Unkeyed<Value: Sendable>: Sendable, Encodable {
    public var wrappedValue: Value

    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}
