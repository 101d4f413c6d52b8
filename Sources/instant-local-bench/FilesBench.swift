import Foundation
import InstantAdmin
import InstantLocal
import Logging

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `INSTANT_LOCAL_BENCH_FILES=64 instant-local-bench`: `$files` upload and download throughput
/// over loopback for a file of that many MiB (64 by default), on a data file in a temporary
/// directory: five rounds of an admin upload (`PUT /admin/storage/upload`, what
/// `InstantAdmin.uploadFile` sends) then a download of its signed URL, both through URLSession,
/// as an app would. The client's time is included: it is what an app sees.
func runFilesBench(megabytes: Int) async throws {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("files-bench-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  var logger = Logger(label: "instant-local")
  logger.logLevel = .error
  var configuration = InstantLocalConfiguration(port: 0, storage: .file(directory.appendingPathComponent("files.sqlite").path))
  configuration.maxUploadBytes = max(configuration.maxUploadBytes, (megabytes + 1) << 20)
  let server = try InstantLocalServer(configuration: configuration, logger: logger)
  try await server.start()
  let app = try server.apps.create(title: "Files bench")
  let admin = InstantAdmin(appID: app.id, adminToken: app.adminToken, apiURI: await server.baseURL!)

  var generator = SystemRandomNumberGenerator()
  var words = (0..<(megabytes << 17)).map { _ in generator.next() }
  let payload = words.withUnsafeMutableBytes { Data($0) }
  words = []
  let rssBefore = residentMegabytes()
  var uploads: [Double] = []
  var downloads: [Double] = []
  for round in 1...5 {
    let uploadStart = ContinuousClock.now
    let file = try await admin.uploadFile(path: "bench/round-\(round).bin", data: payload)
    uploads.append(Double(megabytes) / seconds(ContinuousClock.now - uploadStart))
    let url = URL(string: server.fileURL(appID: app.id, locationID: file.locationID, madeAt: Date())!)!
    let downloadStart = ContinuousClock.now
    let (bytes, _) = try await URLSession.shared.data(from: url)
    downloads.append(Double(megabytes) / seconds(ContinuousClock.now - downloadStart))
    precondition(bytes.count == payload.count, "downloaded \(bytes.count) bytes of \(payload.count)")
  }
  let rssAfter = residentMegabytes()
  await server.stop()
  uploads.sort()
  downloads.sort()
  print("instant-local $files: a \(megabytes) MiB file over loopback, 5 rounds (release build is what counts)")
  print(String(format: "upload   (PUT /admin/storage/upload): median %.0f MiB/s (min %.0f, max %.0f)", uploads[2], uploads[0], uploads[4]))
  print(String(format: "download (GET signed url):           median %.0f MiB/s (min %.0f, max %.0f)", downloads[2], downloads[0], downloads[4]))
  print(String(format: "process RSS %.0f MB before the rounds, %.0f MB after (client and server in one process)", rssBefore, rssAfter))
}

private func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}
