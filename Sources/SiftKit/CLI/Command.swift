/// A subcommand of `sift`: its name, its help (`sift help NAME`, `sift NAME --help`) and what it does.
protocol Command {
    /// The word that selects it: `sift NAME …`.
    static var name: String { get }
    /// Printed for `-h`, `--help` and `sift help NAME`.
    static var help: String { get }
    /// Runs with the arguments after the command's name.
    static func run(_ args: inout ArgumentList) throws -> SiftCLI.Outcome
}

extension Command {
    /// The outcome of `-h`/`--help`.
    static var helpOutcome: SiftCLI.Outcome { SiftCLI.Outcome(status: 0, stdout: help, stderr: "") }
}
