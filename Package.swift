// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "sharing-instant",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  products: [
    .library(name: "InstantCore", targets: ["InstantCore"]),
    .executable(name: "instant-query", targets: ["instant-query"]),
    .library(name: "SharingInstant", targets: ["SharingInstant"]),
    .library(name: "InstantSchema", targets: ["InstantSchema"]),
    .executable(name: "instant-schema", targets: ["instant-schema"]),
    .plugin(name: "InstantSchemaPlugin", targets: ["InstantSchemaPlugin"]),
    .library(name: "InstantLocal", targets: ["InstantLocal"]),
    .library(name: "InstantLocalTesting", targets: ["InstantLocalTesting"]),
    .executable(name: "instant-local", targets: ["instant-local"]),
    .library(name: "InstantDB", targets: ["InstantDB"]),
    .library(name: "InstantAdmin", targets: ["InstantAdmin"]),
    .executable(name: "instant-chaos", targets: ["instant-chaos"]),
    .executable(name: "instant-demo", targets: ["instant-demo"]),
  ],
  traits: [
    .trait(
      name: "PointFreeSharing",
      description: "Use pointfreeco/swift-sharing instead of SharingInstant's built-in stand-in for it."
    ),
    .default(enabledTraits: []),
  ],
  dependencies: [
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    // Only resolved when the `PointFreeSharing` trait is enabled.
    .package(url: "https://github.com/pointfreeco/swift-sharing", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    // Time as a dependency: the client and the server sleep on an injected clock (tests pass a TestClock).
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    // instant-local's `GET /metrics` (a registry per server, no global bootstrap).
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    // SHA-256 of admin tokens and the HMAC of signed file URLs (already built for swift-nio-ssl's users).
    .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    // Backups in Instant's format are zip archives.
    .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    // `swift package generate-documentation`: builds the DocC catalogs (CI checks their links).
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // A seeded random number generator, `eventually` and other helpers shared by the test targets.
    // Child processes started with posix_spawn (not Foundation's Process, which can crash the
    // parent on Linux): the tests' servers and tools, and the chaos run's clients.
    .target(name: "ChildProcesses"),
    .target(
      name: "TestSupport", dependencies: ["ChildProcesses", .product(name: "Logging", package: "swift-log")],
      path: "Tests/TestSupport"),
    .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
    // Common Expression Language: parses and evaluates InstantDB permission rules. No dependencies.
    .target(name: "CEL"),
    .testTarget(name: "CELTests", dependencies: ["CEL"]),
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
        "TestSupport",
        "InstantCore",
        "instant-query",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        // Routes `expectNoDifference` failures to Swift Testing (without it they only print on Linux).
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ]
    ),

    // MARK: instant-schema

    // Sharing's public API (`Shared`, `SharedKey`, …) for builds without swift-sharing.
    .target(
      name: "SharingStandIn",
      dependencies: [.product(name: "IssueReporting", package: "xctest-dynamic-overlay")]
    ),
    .target(
      name: "SharingInstant",
      dependencies: [
        "InstantCore",
        "InstantDB",
        "SharingStandIn",
        .product(name: "Sharing", package: "swift-sharing", condition: .when(traits: ["PointFreeSharing"])),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .testTarget(
      name: "SharingInstantKeysTests",
      dependencies: [
        "TestSupport",
        "SharingInstant",
        "InstantSchemaFixture",
        "InstantDB",
        "InstantCore",
        "InstantLocal",
        "InstantLocalTesting",
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .target(
      name: "InstantSchema",
      dependencies: ["InstantCore", .product(name: "OrderedCollections", package: "swift-collections")]
    ),
    .executableTarget(
      name: "instant-schema",
      dependencies: [
        "InstantSchema",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .plugin(
      name: "InstantSchemaPlugin",
      capability: .buildTool(),
      dependencies: ["instant-schema"]
    ),
    .target(
      name: "InstantSchemaFixture",
      dependencies: ["SharingInstant"],
      path: "Tests/InstantSchemaFixture",
      exclude: ["instant.schema.ts", "types.ts", "setup.ts"]
    ),
    .testTarget(
      name: "InstantSchemaTests",
      dependencies: [
        "TestSupport",
        "InstantSchema",
        "SharingInstant",
        "InstantSchemaFixture",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ],
      exclude: ["Schemas", "__Snapshots__"]
    ),

    // MARK: instant-local

    // Permission rules (`instant.perms.ts`): the document, compiled CEL, and the checks of
    // transactions and queries, over InstantCore's store.
    .target(
      name: "InstantPermissions",
      dependencies: ["CEL", "InstantCore", .product(name: "OrderedCollections", package: "swift-collections")]
    ),
    .testTarget(
      name: "InstantPermissionsTests",
      dependencies: ["InstantPermissions", "InstantCore", .product(name: "OrderedCollections", package: "swift-collections")]
    ),
    // Backups in Instant's format (`config.json`, `entities/<namespace>.jsonl`, `files/<location-id>`):
    // writing one from an app's attrs and triples, and reading and checking one into them.
    .target(
      name: "InstantBackup",
      dependencies: [
        "InstantCore",
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
      ]
    ),
    .testTarget(
      name: "InstantBackupTests",
      dependencies: [
        "InstantBackup",
        "InstantCore",
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
      ]
    ),
    .target(
      name: "InstantLocal",
      dependencies: [
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "_CryptoExtras", package: "swift-crypto"),
        "InstantBackup",
        "InstantCore",
        "InstantPermissions",
        "InstantSchema",
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "UnixSignals", package: "swift-service-lifecycle"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ]
    ),
    .target(
      name: "InstantLocalTesting",
      dependencies: [
        "InstantLocal",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .executableTarget(
      name: "instant-local",
      dependencies: [
        "InstantLocal",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .executableTarget(
      name: "instant-local-bench",
      dependencies: [
        "InstantAdmin",
        "InstantLocal",
        "InstantCore",
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "InstantLocalTests",
      dependencies: [
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "_CryptoExtras", package: "swift-crypto"),
        .product(name: "Hummingbird", package: "hummingbird"),
        "TestSupport",
        "InstantLocal",
        "InstantLocalTesting",
        // The OAuth web flow's tests run the client's half too (createAuthorizationURL, exchangeOAuthCode).
        "InstantDB",
        .product(name: "GRDB", package: "GRDB.swift"),
        "InstantCore",
        "InstantPermissions",
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ]
    ),

    // MARK: InstantDB (the client)

    .target(
      name: "InstantDB",
      dependencies: [
        .product(name: "Clocks", package: "swift-clocks"),
        "InstantCore",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),
    .testTarget(
      name: "InstantDBTests",
      dependencies: [
        .product(name: "Clocks", package: "swift-clocks"),
        "TestSupport",
        "InstantChaos",
        "InstantDB",
        "InstantCore",
        "InstantLocal",
        "InstantLocalTesting",
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
      ]
    ),

    // MARK: InstantAdmin (the admin API for server-side Swift)

    .target(
      name: "InstantAdmin",
      dependencies: ["InstantCore", .product(name: "OrderedCollections", package: "swift-collections")]
    ),
    .testTarget(
      name: "InstantAdminTests",
      dependencies: [
        "TestSupport", "InstantAdmin", "InstantCore", "InstantLocal", "InstantLocalTesting", "InstantDB",
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
      ]
    ),

    // MARK: instant-chaos (reliability: a chaos run against a model, issue 11)

    .target(
      name: "InstantChaos",
      dependencies: [
        "ChildProcesses",
        "InstantCore",
        "InstantDB",
        "InstantLocal",
        "SharingInstant",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ]
    ),
    .executableTarget(
      name: "instant-chaos",
      dependencies: [
        "InstantChaos",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "InstantChaosTests",
      dependencies: ["TestSupport", "InstantChaos", "instant-chaos"]
    ),

    // MARK: Examples (the demos: `swift run instant-demo`, `todos`, `chat`, `cursors`, `tiles`)

    // Generated from Examples/Schema/instant.schema.ts (the sample schema plus what the demos need).
    .target(
      name: "ExampleSchema",
      dependencies: ["SharingInstant"],
      path: "Examples/Schema",
      exclude: ["instant.schema.ts"]
    ),
    // The seeds' case studies as models over `@Shared` keys only (and SwiftUI views on Apple platforms).
    .target(
      name: "CaseStudies",
      dependencies: ["ExampleSchema", "SharingInstant"],
      path: "Examples/CaseStudies"
    ),
    // What the terminal demos share: finding or starting the embedded server, the terminal itself.
    .target(
      name: "DemoSupport",
      dependencies: [
        "CaseStudies",
        "SharingInstant",
        "InstantLocal",
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Examples/DemoSupport"
    ),
    .executableTarget(
      name: "instant-demo",
      dependencies: [
        "CaseStudies",
        "DemoSupport",
        "ExampleSchema",
        "InstantCore",
        "InstantLocal",
        "SharingInstant",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Examples/instant-demo"
    ),
    // The terminal demos: `swift run todos` (Sync), `chat` (Typing Indicator, Avatar Stack, topics),
    // `cursors`, `tiles` (Tile Game). Run one in two terminals: the first starts the server.
    .executableTarget(name: "todos", dependencies: ["DemoSupport"], path: "Examples/todos"),
    .executableTarget(name: "chat", dependencies: ["DemoSupport"], path: "Examples/chat"),
    .executableTarget(name: "cursors", dependencies: ["DemoSupport"], path: "Examples/cursors"),
    .executableTarget(name: "tiles", dependencies: ["DemoSupport"], path: "Examples/tiles"),
    .testTarget(
      name: "ExamplesTests",
      dependencies: [
        "TestSupport",
        "CaseStudies",
        "InstantSchema",
        "DemoSupport",
        "ExampleSchema",
        "SharingInstant",
        "InstantLocal",
        "InstantLocalTesting",
        "instant-demo",
        "todos",
        "chat",
        "cursors",
        "tiles",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// Every target: `any` spelled out, members only from modules a file imports (so generated code
// and our own never lean on a transitive import), and imports internal unless a file says
// `public import` because its public API shows the module's types.
for target in package.targets where target.type != .plugin {
  target.swiftSettings = (target.swiftSettings ?? []) + [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
  ]
}

// `swift package generate-documentation` extracts symbol graphs with every trait enabled
// (swiftlang/swift-package-manager#10448), so it needs swift-sharing even for InstantCore, and
// CI's machines cannot fetch swift-sharing. `SHARING_INSTANT_DOCS=1` leaves the trait and that
// dependency out, so the docs describe the stand-in build that CI tests (see `.ci/run`).
if Context.environment["SHARING_INSTANT_DOCS"] != nil {
  package.traits = [.default(enabledTraits: [])]
  package.dependencies.removeAll {
    if case .sourceControl(_, let location, _) = $0.kind { location.hasSuffix("/swift-sharing") } else { false }
  }
  for target in package.targets {
    target.dependencies.removeAll {
      if case .productItem(_, "swift-sharing", _, _) = $0 { true } else { false }
    }
  }
}
