import Testing
import InstantCore

/// The reference client's tests (`instaql.test.ts`, listed in instaql.md §11) on the shared fixtures;
/// expected values are the reference client's own answers (exact order).
@Suite("movies fixture", .fixturesAvailable) struct MoviesTests {
  @Test("movies: a link into an etype without an id attr gives []") func moviesDirectorTargetEmpty() throws {
    try expectFixtureResult(.movies, #"{"movie":{"$":{"limit":2,"fields":["title"]},"director":{}}}"#, Self.twoMoviesWithEmptyDirectors)
  }

  @Test("movies: no created-at, so uuid order") func moviesDefaultOrder() throws {
    try expectFixture(.movies, #"{"movie":{"$":{"limit":5,"fields":["title"]}}}"#, field: "title", Self.firstFiveMoviesByUUID)
  }

  @Test("movies: order by year desc") func moviesOrderByYearDesc() throws {
    try expectFixture(
      .movies, #"{"movie":{"$":{"limit":5,"order":{"year":"desc"},"fields":["title","year"]}}}"#, field: "title", Self.fiveNewestMovies)
  }

  @Test("movies: link-value equality works (cast = Sophie Marceau)") func moviesCastLinkValue() throws {
    try expectFixture(
      .movies, #"{"movie":{"$":{"where":{"cast":"44547e40-0c50-4692-a451-6c985077ed90"},"fields":["title"]}}}"#, field: "title", ["Braveheart"])
  }

  @Test("movies: a dotted path into cast gives []") func moviesCastPathEmpty() throws {
    try expectFixtureResult(.movies, #"{"movie":{"$":{"where":{"cast.name":"Sophie Marceau"},"fields":["title"]}}}"#, #"{"data":{"movie":[]}}"#)
  }
}
