// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so the library's dependency graph stays lean.
// Run from this directory: `swift package benchmark` (see BENCHMARKS.md at the repository root).
let package = Package(
  name: "sharing-instant-benchmarks",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "sharing-instant", path: ".."),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    .target(name: "CMallocStats", path: "Sources/CMallocStats"),
    .target(name: "SyntheticData", dependencies: [.product(name: "InstantCore", package: "sharing-instant")]),
    // Heap bytes per triple, measured outside the benchmark harness (its malloc interposer hides
    // the allocator's statistics): `swift run -c release instant-core-memory`.
    .executableTarget(
      name: "instant-core-memory",
      dependencies: ["CMallocStats", "SyntheticData", .product(name: "InstantCore", package: "sharing-instant")]
    ),
    // Client latencies through instant-local: `swift run -c release instant-client-bench`.
    .executableTarget(
      name: "instant-client-bench",
      dependencies: [
        .product(name: "InstantCore", package: "sharing-instant"),
        .product(name: "InstantDB", package: "sharing-instant"),
        .product(name: "InstantLocal", package: "sharing-instant"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // Presence staleness with 50 peers through instant-local: `swift run -c release instant-presence-bench`.
    .executableTarget(
      name: "instant-presence-bench",
      dependencies: [
        .product(name: "InstantDB", package: "sharing-instant"),
        .product(name: "InstantLocal", package: "sharing-instant"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // `withLock` one-row edits in a large `.instantSync` collection:
    // `swift run -c release sharing-instant-keys-bench 1000`.
    .executableTarget(
      name: "sharing-instant-keys-bench",
      dependencies: [
        "CMallocStats",
        .product(name: "SharingInstant", package: "sharing-instant"),
        .product(name: "InstantLocal", package: "sharing-instant"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // instant-local behind nginx with TLS: 1,000 sessions' refresh latency and RSS, sign-ins a
    // second: `swift run -c release instant-local-tls-bench 1000 100 2000`.
    .executableTarget(
      name: "instant-local-tls-bench",
      dependencies: [
        .product(name: "InstantCore", package: "sharing-instant"),
        .product(name: "InstantDB", package: "sharing-instant"),
        .product(name: "InstantLocal", package: "sharing-instant"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The lag of the terminal demos' 500th change (two `todos` processes; Foundation only):
    // `swift run -c release demo-lag-bench ../.build/release 500`.
    .executableTarget(name: "demo-lag-bench"),
    .executableTarget(
      name: "InstantCoreBenchmarks",
      dependencies: [
        "SyntheticData",
        .product(name: "InstantCore", package: "sharing-instant"),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/InstantCoreBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
  ],
  swiftLanguageModes: [.v6]
)
