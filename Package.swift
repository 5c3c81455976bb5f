// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Sift",
    products: [
        .executable(name: "sift", targets: ["sift"]),
        .library(name: "SiftKit", targets: ["SiftKit"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        .systemLibrary(
            name: "CYaml",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CBrotli",
            pkgConfig: "libbrotlienc",
            providers: [.apt(["libbrotli-dev"])]
        ),
        .target(
            name: "SiftKit",
            dependencies: ["CCmark", "CYaml", "CZlib", "CBrotli"],
            resources: [.embedInCode("Resources")]
        ),
        .executableTarget(name: "sift", dependencies: ["SiftKit"]),
        .testTarget(
            name: "SiftKitTests",
            dependencies: ["SiftKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
