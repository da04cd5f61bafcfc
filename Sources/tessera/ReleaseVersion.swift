/// The version this source tree is released as, and the commit a release binary was built from.
///
/// `number` is bumped when a release is made (docs/releasing.md): it must equal `CHANGELOG.md`'s
/// newest heading (a test checks) and the `vNUMBER` tag `make dist` finds on the commit, if any.
/// The commit comes from `BuildStamp.swift`, which `make dist` and `make install` write (it is
/// not committed) and compile in with `-DTESSERA_STAMPED`; any other build says it has none.
enum ReleaseVersion {
    static let number = "0.2.0"

    static var commit: String? {
        #if TESSERA_STAMPED
        return BuildStamp.commit
        #else
        return nil
        #endif
    }

    /// `0.2.0 (commit 2bda249a1b2c)`, or `0.2.0 (development build: no commit recorded)`.
    static var description: String {
        "\(number) (\(commit.map { "commit \($0)" } ?? "development build: no commit recorded"))"
    }
}
