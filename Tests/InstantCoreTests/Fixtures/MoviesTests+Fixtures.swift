import InstantCore

/// The reference client's answers for ``MoviesTests``.
extension MoviesTests {
  static let twoMoviesWithEmptyDirectors = #"""
    {"data":{"movie":[
      {"title":"Terminator 2: Judgment Day","id":"0d3e926b-dcbb-45ca-854d-52af9de35e37","director":[]},
      {"title":"Braveheart","id":"0eb4304c-7c3d-41cc-bf80-4e0a4a64e4b0","director":[]}
    ]}}
    """#

  static let firstFiveMoviesByUUID: [JSON?] = [
    "Terminator 2: Judgment Day", "Braveheart", "Lethal Weapon", "The Terminator", "Rambo: First Blood Part II",
  ]

  static let fiveNewestMovies: [JSON?] = [
    "Terminator 3: Rise of the Machines", "Braveheart", "Lethal Weapon 3", "Terminator 2: Judgment Day", "Predator 2",
  ]
}
