import BuildOptions
import TesseraCore

/// Where one option's value goes in its section's options: the option table says what the option
/// is (name, type, default, range, help), the binding where it lives. Each section lists its
/// bindings once (`StageSection.bindings`), and the pipeline reader applies them in one loop.
struct OptionBinding<Section>: Sendable {
    let option: any DeclaredOption
    private let apply: @Sendable (StageEntries, inout Section) throws(TesseraError) -> Void

    /// The option's value, when the stage gives it, stored at `path`.
    init<Value>(_ spec: OptionSpec<Value>, _ path: WritableKeyPath<Section, Value> & Sendable) {
        option = spec
        apply = { entries, section throws(TesseraError) in
            if let value = try entries.value(spec) { section[keyPath: path] = value }
        }
    }

    /// The option's value, when the stage gives it, applied by `update`: for an option that sets
    /// more than one field (naming assets turns "every asset" off).
    init<Value>(_ spec: OptionSpec<Value>, update: @escaping @Sendable (inout Section, Value) -> Void) {
        option = spec
        apply = { entries, section throws(TesseraError) in
            if let value = try entries.value(spec) { update(&section, value) }
        }
    }

    func read(_ entries: StageEntries, into section: inout Section) throws(TesseraError) {
        try apply(entries, &section)
    }
}

/// One stage's options as a type: its defaults, and where each of its options goes.
protocol StageSection: Sendable {
    init()
    /// In the option table's order, which is the order they apply in.
    static var bindings: [OptionBinding<Self>] { get }
    /// Refuses a combination no single option can (growth budgets without a build to compare with).
    func checked() throws(TesseraError) -> Self
}

extension StageSection {
    func checked() throws(TesseraError) -> Self { self }

    /// The section as a pipeline's stage gives it: the defaults, then each option it gives.
    static func read(_ entries: StageEntries) throws(TesseraError) -> Self {
        var section = Self()
        for binding in bindings { try binding.read(entries, into: &section) }
        return try section.checked()
    }
}
