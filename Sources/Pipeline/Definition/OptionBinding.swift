import BuildOptions
import TesseraCore

/// Where one option's value goes in its section's options: the option table says what the option
/// is (name, type, default, range, help), the binding where it lives. Each section lists its
/// bindings once (`StageSection.bindings`), and the pipeline reader applies them in one loop.
public struct OptionBinding<Section>: Sendable {
    public let option: any DeclaredOption
    /// Stores a value of the option's type; the binding is made from the option, so the cast holds.
    private let store: @Sendable (inout Section, any Sendable) -> Void
    private let read: @Sendable (StageEntries) throws(TesseraError) -> (any Sendable)?

    /// The option's value stored at `path`.
    init<Value>(_ spec: OptionSpec<Value>, _ path: WritableKeyPath<Section, Value> & Sendable) {
        self.init(spec) { section, value in section[keyPath: path] = value }
    }

    /// The option's value applied by `update`: for an option that sets more than one field
    /// (naming assets turns "every asset" off).
    init<Value>(_ spec: OptionSpec<Value>, update: @escaping @Sendable (inout Section, Value) -> Void) {
        option = spec
        store = { section, value in
            if let value = value as? Value { update(&section, value) }
        }
        read = { entries throws(TesseraError) in try entries.value(spec) }
    }

    /// The option's value from a pipeline's stage, when the stage gives it.
    func read(_ entries: StageEntries, into section: inout Section) throws(TesseraError) {
        if let value = try read(entries) { store(&section, value) }
    }

    func set(_ value: any Sendable, in section: inout Section) { store(&section, value) }
}

/// One stage's options as a type: its defaults, and where each of its options goes.
public protocol StageSection: Sendable {
    init()
    /// In the option table's order, which is the order they apply in.
    static var bindings: [OptionBinding<Self>] { get }
    /// Refuses a combination no single option can (growth budgets without a build to compare with).
    func checked() throws(TesseraError) -> Self
}

extension StageSection {
    public func checked() throws(TesseraError) -> Self { self }

    /// The section with `option` set to `value`, as a pipeline's stage giving it would set it: how a
    /// command's `--<option>` reaches the same fields (and encoders) as the pipeline's key.
    public mutating func set<Value: Sendable>(_ option: OptionSpec<Value>, _ value: Value) {
        guard let binding = Self.bindings.first(where: { $0.option.name == option.name }) else {
            preconditionFailure("\(Self.self) has no binding for \(option.name)")
        }
        binding.set(value, in: &self)
    }

    /// The section as a pipeline's stage gives it: the defaults, then each option it gives.
    static func read(_ entries: StageEntries) throws(TesseraError) -> Self {
        var section = Self()
        for binding in bindings { try binding.read(entries, into: &section) }
        return try section.checked()
    }
}
