/// Budget violations grouped by what caused them: one asset, one pack, one device's install or
/// total. One image grown by 22 MB breaks max-asset-growth, max-pack-growth and
/// max-install-growth on every device class: three causes, three lines, not fifteen.
public struct BudgetFailure: Sendable, Equatable {
    /// What went over (`asset Logo`, `pack base`, `install`).
    public var item: String
    /// Each device class's violations of it, in report order.
    public var violations: [BudgetViolation]

    /// Groups `violations` by item, in the order items first went over.
    public static func group(_ violations: [BudgetViolation]) -> [BudgetFailure] {
        var order: [String] = []
        var byItem: [String: [BudgetViolation]] = [:]
        for violation in violations {
            if byItem[violation.item] == nil { order.append(violation.item) }
            byItem[violation.item, default: []].append(violation)
        }
        return order.map { BudgetFailure(item: $0, violations: byItem[$0]!) }
    }

    /// The device classes it went over on, in report order, each once.
    public var devices: [String] {
        var seen = Set<String>()
        return violations.map(\.device).filter { seen.insert($0).inserted }
    }

    /// The budgets it broke, each once: `max-asset 2 MB and max-asset-growth 2% (+14 KB allowed)`.
    var budgets: String {
        var seen = Set<String>()
        let named = violations.filter { seen.insert($0.budget).inserted }.map { first in
            let limits = violations.filter { $0.budget == first.budget }.map(\.limit)
            return first.isGrowth && first.budget.hasSuffix("%") ? "\(first.budget) (\(ByteText.changeRange(limits)) allowed)" : first.budget
        }
        return named.count <= 2 ? named.joined(separator: " and ")
            : named.dropLast().joined(separator: ", ") + " and " + named.last!
    }

    /// One sentence: what, how big (a range when the device classes differ), where, and which
    /// budgets: `asset Logo grew from 709 KB to 23.6 MB (+22.9 MB) on 5 device classes (ipad-2x,
    /// iphone-2x, …): over max-asset-growth 2% (+14 KB allowed)`.
    public var message: String {
        let growth = violations.filter(\.isGrowth)
        let fixed = violations.filter { !$0.isGrowth }
        var size: String
        if !growth.isEmpty {
            let before = growth.compactMap(\.before), after = growth.map { $0.bytes + ($0.before ?? 0) }
            size = before.allSatisfy({ $0 == 0 }) ? "is new at \(ByteText.range(after))"
                : "grew from \(ByteText.range(before)) to \(ByteText.range(after)) (\(ByteText.changeRange(growth.map(\.bytes))))"
        } else {
            size = "is \(ByteText.range(fixed.map(\.bytes)))"
        }
        if !growth.isEmpty, !fixed.isEmpty, Set(fixed.map(\.bytes)) != Set(growth.map { $0.bytes + ($0.before ?? 0) }) {
            size += ", \(ByteText.range(fixed.map(\.bytes)))"
        }
        let causes = growth.compactMap(\.cause)
        var causeText = ""
        if let biggest = causes.max(by: { ($0.bytes, $1.asset) < ($1.bytes, $0.asset) }) {
            causeText = ", most of it asset \(biggest.asset) (\(ByteText.changeRange(causes.filter { $0.asset == biggest.asset }.map(\.bytes))))"
        }
        return "\(item) \(size) \(placeText)\(causeText): over \(budgets)"
    }

    /// `on iPhone18,2`, or `on 5 device classes (a, b, c, d, e)`; past six, the first five and a count.
    private var placeText: String {
        let names = devices
        if names.count == 1 { return "on \(names[0])" }
        let listed = names.count <= 6 ? names.joined(separator: ", ") : names.prefix(5).joined(separator: ", ") + " and \(names.count - 5) more"
        return "on \(names.count) device classes (\(listed))"
    }
}
