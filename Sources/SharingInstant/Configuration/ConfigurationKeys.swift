import InstantDB

/// The configuration and request forms of the collection keys (``SharingInstantSync``): each is
/// the typed key its configuration stands for, with an `IdentifiedArrayOf` or an `Array` value.
extension SharedReaderKey {
  public static func instantSync<Entity>(
    configuration: SharingInstantSync.CollectionConfiguration<Entity>, client: InstantClient? = nil
  ) -> Self where Self == InstantSyncKey<Entity>.Default {
    instantSync(configuration.entityKey, client: client)
  }

  @_disfavoredOverload
  public static func instantSync<Entity>(
    configuration: SharingInstantSync.CollectionConfiguration<Entity>, client: InstantClient? = nil
  ) -> Self where Self == InstantSyncArrayKey<Entity>.Default {
    instantSync(configuration.entityKey, client: client)
  }

  public static func instantSync<Request: SharingInstantSync.KeyCollectionRequest>(
    _ request: Request, client: InstantClient? = nil
  ) -> Self where Self == InstantSyncKey<Request.Element>.Default {
    instantSync(request.configuration.entityKey, client: client)
  }

  @_disfavoredOverload
  public static func instantSync<Request: SharingInstantSync.KeyCollectionRequest>(
    _ request: Request, client: InstantClient? = nil
  ) -> Self where Self == InstantSyncArrayKey<Request.Element>.Default {
    instantSync(request.configuration.entityKey, client: client)
  }

  public static func instantQuery<Entity>(
    configuration: SharingInstantQuery.Configuration<Entity>, client: InstantClient? = nil
  ) -> Self where Self == InstantQueryKey<Entity>.Default {
    instantQuery(configuration.entityKey, client: client)
  }

  @_disfavoredOverload
  public static func instantQuery<Entity>(
    configuration: SharingInstantQuery.Configuration<Entity>, client: InstantClient? = nil
  ) -> Self where Self == InstantQueryArrayKey<Entity>.Default {
    instantQuery(configuration.entityKey, client: client)
  }

  public static func instantQuery<Request: SharingInstantSync.KeyCollectionRequest>(
    _ request: Request, client: InstantClient? = nil
  ) -> Self where Self == InstantQueryKey<Request.Element>.Default {
    instantQuery(request.configuration.entityKey, client: client)
  }

  @_disfavoredOverload
  public static func instantQuery<Request: SharingInstantSync.KeyCollectionRequest>(
    _ request: Request, client: InstantClient? = nil
  ) -> Self where Self == InstantQueryArrayKey<Request.Element>.Default {
    instantQuery(request.configuration.entityKey, client: client)
  }
}
