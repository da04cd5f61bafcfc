/// Where a rollback takes a channel, read from its history.
///
/// The history is replayed oldest first as a stack: a promotion pushes its build, a rollback pops
/// back to the build it moved to. The channel's build is the top; a rollback goes to the build
/// under it. So two rollbacks in a row go two builds back — the first version toggled, re-promoting
/// the build it had just rolled away from (issue 39).
extension ChannelState {
    /// The builds a rollback can reach, nearest first (the channel's current build excluded).
    public var rollbackStack: [BuildID] {
        var stack: [BuildID] = []
        for event in history.sorted(by: { $0.sequence < $1.sequence }) {
            switch event.kind {
            case .promote:
                if stack.last != event.build { stack.append(event.build) }
            case .rollback:
                if let index = stack.lastIndex(of: event.build) {
                    stack.removeSubrange((index + 1)...)
                } else {
                    stack = [event.build]
                }
            }
        }
        if stack.last != build { stack.append(build) }
        return Array(stack.dropLast().reversed())
    }

    /// The build a rollback moves to: `target` when it is on the way back (refused otherwise),
    /// else the one before the current build; nil when there is none.
    public func rollbackTarget(to target: BuildID? = nil) -> BuildID? {
        guard let target else { return rollbackStack.first }
        return rollbackStack.contains(target) ? target : nil
    }
}
