public import Foundation
import InstantCore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Reads a schema from an Instant server's `GET /dash/apps/{id}/schema/pull`, as `instant-cli pull`
/// does, for hosted InstantDB, a self-hosted Instant or instant-local.
///
/// The server's form has no rooms, no type arguments and no link names (names are rebuilt as
/// `<forward namespace><Forward label>`), so a schema file is the richer source when there is one.
public enum SchemaPull {
  /// The default API address of hosted InstantDB.
  public static let defaultAPIURI = URL(string: "https://api.instantdb.com")!

  /// Fetches the pull response body for `appID`.
  ///
  /// - Parameters:
  ///   - appID: the app whose schema to read.
  ///   - apiURI: the server's API address; hosted InstantDB by default.
  ///   - token: sent as `Authorization: Bearer <token>`: a CLI login token, a personal access
  ///     token or the app's admin token.
  public static func fetch(appID: String, apiURI: URL = defaultAPIURI, token: String?) async throws(Diagnostic) -> Data {
    let url = apiURI.appendingPathComponent("dash/apps/\(appID)/schema/pull")
    var request = URLRequest(url: url)
    request.httpMethod = "GET"
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.setValue("instant-schema", forHTTPHeaderField: "X-Instant-Source")
    request.setValue("pull", forHTTPHeaderField: "X-Instant-Command")
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await URLSession.shared.data(for: request)
    } catch {
      throw .error(.network, "cannot reach \(url.absoluteString): \(error.localizedDescription); check --api-uri and that the server is running")
    }
    guard let http = response as? HTTPURLResponse else {
      throw .error(.network, "\(url.absoluteString) did not answer over HTTP")
    }
    guard (200..<300).contains(http.statusCode) else {
      let body = String(decoding: data.prefix(500), as: UTF8.self)
      let hint =
        http.statusCode == 401 || http.statusCode == 403
        ? "; pass --token (or set INSTANT_CLI_AUTH_TOKEN / INSTANT_ADMIN_TOKEN) with access to the app" : ""
      throw .error(.network, "\(url.absoluteString) answered HTTP \(http.statusCode)\(hint): \(body)")
    }
    return data
  }

  /// Converts a pull response body (`{ "schema": { "blobs", "refs" }, … }`) to a schema, the
  /// way `instant-cli pull` writes it: entities and attributes sorted, `id` dropped, the
  /// checked type or `i.any()`, and modifiers from `unique?`, `index?` and `required?`.
  public static func schema(fromPullResponse data: Data) throws(Diagnostic) -> InstantSchemaDefinition {
    guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
      throw .error(.network, "the pull response is not a JSON object")
    }
    guard let schema = root["schema"] as? [String: Any] else {
      throw .error(.network, "the pull response has no `schema` object; is the URL an Instant server's /dash/apps/{id}/schema/pull?")
    }
    var definition = InstantSchemaDefinition()
    let blobs = schema["blobs"] as? [String: Any] ?? [:]
    for namespace in blobs.keys.sorted() {
      let attributes = blobs[namespace] as? [String: Any] ?? [:]
      var entity = EntityDefinition(name: namespace)
      for label in attributes.keys.sorted() where label != "id" {
        guard let record = attributes[label] as? [String: Any] else { continue }
        if record["value-type"] as? String == "ref" { continue }
        let checked = record["checked-data-type"] as? String
        entity.attributes.append(
          AttributeDefinition(
            name: label, valueType: checked.flatMap(AttributeDefinition.ValueType.init(rawValue:)) ?? .any,
            isOptional: !(record["required?"] as? Bool ?? false), isUnique: record["unique?"] as? Bool ?? false,
            isIndexed: record["index?"] as? Bool ?? false))
      }
      definition.entities.append(entity)
    }
    let refs = schema["refs"] as? [String: Any] ?? [:]
    var links: [LinkDefinition] = []
    for record in refs.values.compactMap({ $0 as? [String: Any] }) {
      guard let forward = record["forward-identity"] as? [Any], forward.count == 3,
        let reverse = record["reverse-identity"] as? [Any], reverse.count == 3,
        let forwardNamespace = forward[1] as? String, let forwardLabel = forward[2] as? String,
        let reverseNamespace = reverse[1] as? String, let reverseLabel = reverse[2] as? String
      else { continue }
      let name = forwardNamespace + forwardLabel.prefix(1).uppercased() + forwardLabel.dropFirst()
      links.append(
        LinkDefinition(
          name: name,
          forward: .init(
            namespace: forwardNamespace, has: record["cardinality"] as? String == "one" ? .one : .many, label: forwardLabel,
            isRequired: record["required?"] as? Bool ?? false, cascadesOnDelete: record["on-delete"] as? String == "cascade"),
          reverse: .init(
            namespace: reverseNamespace, has: record["unique?"] as? Bool ?? false ? .one : .many, label: reverseLabel,
            cascadesOnDelete: record["on-delete-reverse"] as? String == "cascade")))
    }
    definition.links = links.sorted { $0.name < $1.name }
    let declared = Set(definition.entities.map(\.name))
    for link in definition.links {
      for namespace in [link.forward.namespace, link.reverse.namespace] where !declared.contains(namespace) {
        if definition.entity(named: namespace) == nil { definition.entities.append(EntityDefinition(name: namespace)) }
      }
    }
    return definition
  }
}

extension SchemaPull {
  /// The SHA-256 of a pull response, for generated headers.
  public static func hash(of data: Data) -> String { SHA256.hex(data) }
}
