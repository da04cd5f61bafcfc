import RemoteExecution

/// `run`'s summary line for a remote executor: what went there and what stayed here.
enum RemoteSummary {
    static func line(_ tally: RemoteExecutor.Tally) -> String {
        var parts = ["\(tally.unitsSent) work units in \(tally.actions) actions"]
        if tally.cachedActions > 0 { parts.append("\(tally.cachedActions) answered from the executor's action cache") }
        parts.append("\(tally.entriesAdopted) results taken")
        if tally.failedActions > 0 { parts.append("\(tally.failedActions) actions failed") }
        if tally.unitsLocal > 0 { parts.append("\(tally.unitsLocal) units built here") }
        return parts.joined(separator: ", ")
    }
}
