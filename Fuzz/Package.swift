// swift-tools-version:6.0
// libFuzzer targets for Sift's parsers, kept out of the root package so `swift build` and
// `swift test` there never see the sanitizer flags. Build and run with `make fuzz` (see README.md).
import PackageDescription

let targets = ["FuzzCSV", "FuzzFrontMatter", "FuzzMustache", "FuzzSlug", "FuzzIndex", "FuzzSettings", "FuzzHTTP", "FuzzTokenizer"]

let package = Package(
    name: "SiftFuzz",
    dependencies: [.package(name: "Sift", path: "..")],
    targets: targets.map {
        .executableTarget(name: $0, dependencies: [.product(name: "SiftKit", package: "Sift")], path: "Sources/\($0)")
    },
    swiftLanguageModes: [.v6]
)
