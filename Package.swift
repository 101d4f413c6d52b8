// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "sharing-instant",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  products: [
    .library(name: "InstantCore", targets: ["InstantCore"]),
    .executable(name: "instant-query", targets: ["instant-query"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
  ],
  targets: [
    .target(
      name: "InstantCore",
      dependencies: [.product(name: "OrderedCollections", package: "swift-collections")]
    ),
    .executableTarget(
      name: "instant-query",
      dependencies: [
        "InstantCore",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "InstantCoreTests",
      dependencies: [
        "InstantCore",
        "instant-query",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        // Routes `expectNoDifference` failures to Swift Testing (without it they only print on Linux).
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
