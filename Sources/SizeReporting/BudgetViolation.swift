/// One limit gone over on one device class: what (`item`), which budget, by how much. Reports
/// print them grouped by what caused them (`BudgetFailure`); `size-report.json` and `report.json`
/// keep each.
public struct BudgetViolation: Sendable, Equatable, Codable {
    public var device: String
    /// What went over: `install`, `install + on demand`, `pack base [level1]`, `tag level1`,
    /// `asset Logo`, or one of Google Play's totals.
    public var item: String
    /// The budget it broke, as a reader would name it: `max-asset 2 MB`, `max-install-growth 2%`,
    /// `Apple's pack limit of 8.0 GB`.
    public var budget: String
    /// Its bytes; for a growth budget, how much it grew.
    public var bytes: Int
    /// The most it may have; for a growth budget, the most it may grow by.
    public var limit: Int
    /// For a growth budget, its bytes in the previous build.
    public var before: Int?
    /// For an install's or a pack's growth, the asset in it that grew most.
    public var cause: AssetGrowth?

    public init(device: String, item: String, budget: String, bytes: Int, limit: Int, before: Int? = nil,
                cause: AssetGrowth? = nil) {
        self.device = device
        self.item = item
        self.budget = budget
        self.bytes = bytes
        self.limit = limit
        self.before = before
        self.cause = cause
    }

    /// Whether `budget` limits growth against the previous build.
    public var isGrowth: Bool { before != nil }

    /// One line for this device alone: `iPhone18,2: asset Logo grew from 709 KB to 23.6 MB
    /// (+22.9 MB), over max-asset-growth 2% (+14 KB allowed)`.
    public var message: String {
        BudgetFailure.group([self]).first?.message ?? ""
    }
}

/// An asset and how much it grew, on one device class.
public struct AssetGrowth: Sendable, Equatable, Codable {
    public var asset: String
    public var bytes: Int
}
