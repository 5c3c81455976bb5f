import Foundation
import Testing
@testable import SiftKit

/// What `sift build` prints: the summary on stderr whatever stdout is, nothing with `--quiet`,
/// the stages with `--timings`.
@Suite struct BuildCommandTests {
    func site() throws -> TestSite {
        try TestSite(["Content/things/things.txt": "One\nTwo\n", "Content/site.yml": "title: T\nmisspelt: 1\n"])
    }

    @Test func aBuildPrintsWarningsAndTheSummaryOnStderrWhenStdoutIsNoTerminal() throws {
        let site = try site()
        defer { site.delete() }
        let out = SiftCLI.run(["build"], in: site.root)
        #expect(out.status == 0)
        #expect(out.stdout == "")
        let lines = out.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(out.stderr)")
        #expect(lines.first?.hasPrefix("Content/site.yml:2:1: warning: ") == true, "\(out.stderr)")
        #expect(lines.last?.hasPrefix("built 5 pages (2 things), search index ") == true, "\(out.stderr)")
        #expect(lines.last?.hasSuffix(" s into \(site.output.path)") == true, "\(out.stderr)")
    }

    @Test func quietPrintsNothingWhenTheBuildSucceeds() throws {
        let site = try site()
        defer { site.delete() }
        #expect(SiftCLI.run(["build", "--quiet"], in: site.root) == SiftCLI.Outcome(status: 0, stdout: "", stderr: ""))
    }

    @Test func timingsPrintEachStageAfterTheSummary() throws {
        let site = try site()
        defer { site.delete() }
        let out = SiftCLI.run(["build", "--quiet", "--timings", "--clean"], in: site.root)
        let stages = out.stderr.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(stages == ["load", "pages", "assets", "index", "commit"], "\(out.stderr)")
    }

    @Test func timingsGiveEachStagesSecondsAndThePeakMemoryWhenItEnded() throws {
        let site = try site()
        defer { site.delete() }
        let lines = SiftCLI.run(["build", "--quiet", "--timings", "--clean"], in: site.root).stderr.split(separator: "\n")
        let peaks = lines.map { line -> Int in
            let parts = line.split(separator: " ")
            #expect(parts.count == 6 && Double(parts[1]) != nil && parts[2] == "s" && parts[3] == "peak" && parts[5] == "MB", "\(line)")
            return parts.count == 6 ? Int(parts[4]) ?? -1 : -1
        }
        #expect(peaks.count == 5 && peaks.allSatisfy { $0 > 0 }, "a process holds some memory: \(peaks)")
        #expect(peaks == peaks.sorted(), "a peak never falls: \(peaks)")
    }
}
