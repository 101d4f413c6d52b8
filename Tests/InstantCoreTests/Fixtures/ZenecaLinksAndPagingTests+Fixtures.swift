import InstantCore

/// Tx-steps, queries, cursors and the reference client's answers for ``ZenecaLinksAndPagingTests``.
extension ZenecaLinksAndPagingTests {
  static let userCreatedThenUpdated = #"""
    [
      [
        ["add-triple","99999999-0000-4000-8000-000000000001","5a4f5a6d-ba83-4bf0-ae78-27a863300224","99999999-0000-4000-8000-000000000001",
          {"mode":"create"}],
        ["add-triple","99999999-0000-4000-8000-000000000001","20b65ea3-faad-4e80-863e-87468ff7792f","e@mail",{"mode":"create"}],
        ["add-triple","99999999-0000-4000-8000-000000000001","6a089759-2a2f-4898-9bb8-a7bc9f6f791a","handle",{"mode":"create"}]
      ],
      [
        ["add-triple","99999999-0000-4000-8000-000000000001","5a4f5a6d-ba83-4bf0-ae78-27a863300224","99999999-0000-4000-8000-000000000001",
          {"mode":"update"}],
        ["add-triple","99999999-0000-4000-8000-000000000001","20b65ea3-faad-4e80-863e-87468ff7792f","e@mail 2",{"mode":"update"}],
        ["add-triple","99999999-0000-4000-8000-000000000001","6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","Full Name",{"mode":"update"}]
      ]
    ]
    """#

  static let stopaWithJSONObjectFields = #"""
    [[
      ["add-attr",{"id":"aa000000-0000-4000-8000-000000000001","forward-identity":["fa000000-0000-4000-8000-000000000001","users","jsonField"],
        "value-type":"blob","cardinality":"one","unique?":false,"index?":false}],
      ["add-attr",{"id":"aa000000-0000-4000-8000-000000000002","forward-identity":["fa000000-0000-4000-8000-000000000002","users","otherJsonField"],
        "value-type":"blob","cardinality":"one","unique?":false,"index?":false}],
      ["add-triple","a55a5231-5c4d-4033-b859-7790c45c22d5","5a4f5a6d-ba83-4bf0-ae78-27a863300224","a55a5231-5c4d-4033-b859-7790c45c22d5"],
      ["add-triple","a55a5231-5c4d-4033-b859-7790c45c22d5","aa000000-0000-4000-8000-000000000001",{"hello":"world"}],
      ["add-triple","a55a5231-5c4d-4033-b859-7790c45c22d5","aa000000-0000-4000-8000-000000000002",{"world":"hello","list":[1,{"a":null}]}]
    ]]
    """#

  static let nicoleCreatedAtUpdated = #"""
    [[
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","nicolegf"],"5a4f5a6d-ba83-4bf0-ae78-27a863300224",
        ["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","nicolegf"]],
      ["add-triple",["6a089759-2a2f-4898-9bb8-a7bc9f6f791a","nicolegf"],"2ffdf0fc-1561-4fc5-96db-2210a41adfa6","2025-09-05 18:53:07.993689"]
    ]]
    """#

  static let optimisticBob = #"""
    [[
      ["add-triple","99999999-0000-4000-8000-0000000000b0","5a4f5a6d-ba83-4bf0-ae78-27a863300224","99999999-0000-4000-8000-0000000000b0"],
      ["add-triple","99999999-0000-4000-8000-0000000000b0","6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","bob"],
      ["add-triple","99999999-0000-4000-8000-0000000000b0","20b65ea3-faad-4e80-863e-87468ff7792f","bob@instantdb.com"],
      ["add-triple","99999999-0000-4000-8000-0000000000b0","6a089759-2a2f-4898-9bb8-a7bc9f6f791a","bob"],
      ["add-triple","99999999-0000-4000-8000-0000000000b0","2ffdf0fc-1561-4fc5-96db-2210a41adfa6","2025-09-05 18:53:07.993689"]
    ]]
    """#

  static let optimisticNewUser = #"""
    [[
      ["add-triple","99999999-0000-4000-8000-0000000000c0","5a4f5a6d-ba83-4bf0-ae78-27a863300224","99999999-0000-4000-8000-0000000000c0"],
      ["add-triple","99999999-0000-4000-8000-0000000000c0","6aa0c9c1-24f3-469d-9f73-e7c2d058f16b","New User"],
      ["add-triple","99999999-0000-4000-8000-0000000000c0","20b65ea3-faad-4e80-863e-87468ff7792f","new@instantdb.com"],
      ["add-triple","99999999-0000-4000-8000-0000000000c0","6a089759-2a2f-4898-9bb8-a7bc9f6f791a","newuser"],
      ["add-triple","99999999-0000-4000-8000-0000000000c0","2ffdf0fc-1561-4fc5-96db-2210a41adfa6","2025-09-05 18:53:07.993689"]
    ]]
    """#

  static let booksWithNullAndMissingTitle = #"""
    [[
      ["add-triple","99999999-0000-4000-8000-0000000000d1","6eebf15a-ed3c-4442-8869-a44a7c85a1be","99999999-0000-4000-8000-0000000000d1"],
      ["add-triple","99999999-0000-4000-8000-0000000000d1","ed11294d-cd7d-4f3d-8918-4806c80b8a43",null],
      ["add-triple","99999999-0000-4000-8000-0000000000d2","6eebf15a-ed3c-4442-8869-a44a7c85a1be","99999999-0000-4000-8000-0000000000d2"],
      ["add-triple","99999999-0000-4000-8000-0000000000d2","d8b6b232-d081-412b-8a5e-1a43c0b2f7fc",20]
    ]]
    """#

  static let userDwwWithoutShelves = #"""
    [[
      ["add-triple","99999999-0000-4000-8000-0000000000e1","5a4f5a6d-ba83-4bf0-ae78-27a863300224","99999999-0000-4000-8000-0000000000e1"],
      ["add-triple","99999999-0000-4000-8000-0000000000e1","6a089759-2a2f-4898-9bb8-a7bc9f6f791a","dww"]
    ]]
    """#

  static let userDwwAndMonteCristoTitleNulled = #"""
    [
      [
        ["add-triple","99999999-0000-4000-8000-0000000000e1","5a4f5a6d-ba83-4bf0-ae78-27a863300224","99999999-0000-4000-8000-0000000000e1"],
        ["add-triple","99999999-0000-4000-8000-0000000000e1","6a089759-2a2f-4898-9bb8-a7bc9f6f791a","dww"]
      ],
      [["add-triple",["ed11294d-cd7d-4f3d-8918-4806c80b8a43","The Count of Monte Cristo"],"ed11294d-cd7d-4f3d-8918-4806c80b8a43",null]]
    ]
    """#

  static let lonelyShelf = #"""
    [[
      ["add-triple","99999999-0000-4000-8000-0000000000f1","1fcc2b72-02be-405b-918c-8e441f75dcab","99999999-0000-4000-8000-0000000000f1"],
      ["add-triple","99999999-0000-4000-8000-0000000000f1","820a827c-5ddf-4452-8263-dac7e6a53e56","Lonely shelf"]
    ]]
    """#

  static let notUsersEntityOnStopasId = #"""
    [[
      ["add-attr",{"id":"00000000-0000-4000-8000-0000000f4241","forward-identity":["00000000-0000-4000-8000-0000000f4242","not_users","id"],
        "value-type":"blob","cardinality":"one","unique?":true,"index?":false,"isUnsynced":true}],
      ["add-attr",{"id":"00000000-0000-4000-8000-0000000f4243","forward-identity":["00000000-0000-4000-8000-0000000f4244","not_users","email"],
        "value-type":"blob","cardinality":"one","unique?":false,"index?":false,"isUnsynced":true}],
      ["add-triple","a55a5231-5c4d-4033-b859-7790c45c22d5","00000000-0000-4000-8000-0000000f4241","a55a5231-5c4d-4033-b859-7790c45c22d5"],
      ["add-triple","a55a5231-5c4d-4033-b859-7790c45c22d5","00000000-0000-4000-8000-0000000f4243","this-should-not-change-users-stopa@gmail.com"]
    ]]
    """#

  static let alexWithShelfNames = #"""
    {"data":{"users":[{"handle":"alex","id":"ad45e100-777a-4de8-8978-aa13200a4824","bookshelves":[
      {"name":"Nonfiction","id":"8164fb78-6fa3-4aab-8b92-80e706bae93a"},
      {"name":"Short Stories","id":"4ad10e00-1353-437e-9fee-2a89eb53575d"}
    ]}]}}
    """#

  static let shortStoriesWithAlex = #"""
    {"data":{"bookshelves":[{"name":"Short Stories","id":"4ad10e00-1353-437e-9fee-2a89eb53575d","users":[{"handle":"alex",
      "id":"ad45e100-777a-4de8-8978-aa13200a4824"}]}]}}
    """#

  static let alexShelvesAndBooksQuery = #"""
    {"users":{
      "$":{"where":{"handle":"alex"},"fields":["handle"]},
      "bookshelves":{"$":{"fields":["name"]},"books":{"$":{"fields":["title"]}}}
    }}
    """#

  static let alexWithShelvesAndBooks = #"""
    {"data":{"users":[{"handle":"alex","id":"ad45e100-777a-4de8-8978-aa13200a4824","bookshelves":[
      {"name":"Nonfiction","id":"8164fb78-6fa3-4aab-8b92-80e706bae93a","books":[
        {"title":"\"Surely You're Joking, Mr. Feynman!\": Adventures of a Curious Character","id":"d03ff2fe-e2fa-43e2-9e23-f32cda10bff4"},
        {"title":"\"What Do You Care What Other People Think?\": Further Adventures of a Curious Character",
          "id":"ba9480de-a269-4c76-aa72-6f10047d36a2"},
        {"title":"The Spy and the Traitor","id":"71b8e5ca-2807-4e15-9efb-a4acb93a1d9a"},
        {"title":"Antifragile","id":"5d9582ea-eb26-430b-b6aa-68453ed10207"},
        {"title":"Atomic Habits","id":"5a0ec232-cc06-4947-8e9a-4363decbe8d2"},
        {"title":"Catch and Kill","id":"20a462ac-2675-4d67-8ec0-eabcc73a290e"}
      ]},
      {"name":"Short Stories","id":"4ad10e00-1353-437e-9fee-2a89eb53575d","books":[
        {"title":"The Paper Menagerie and Other Stories","id":"9f95697d-9aaa-41e7-8eda-79325a19e5e9"},
        {"title":"Stories of Your Life and Others","id":"8da5ecf7-e65b-4640-b08e-33a0adc2b25e"},
        {"title":"Aesop's Fables","id":"1b693784-0308-44fe-a632-6ef8cfbb18e1"}
      ]}
    ]}]}}
    """#

  static let alexShortStoriesShelfWithBooksQuery = #"""
    {"users":{
      "$":{"where":{"handle":"alex"},"fields":["handle"]},
      "bookshelves":{"$":{"where":{"name":"Short Stories"},"fields":["name"]},"books":{"$":{"fields":["title"]}}}
    }}
    """#

  static let alexWithShortStoriesBooks = #"""
    {"data":{"users":[{"handle":"alex","id":"ad45e100-777a-4de8-8978-aa13200a4824","bookshelves":[{"name":"Short Stories",
      "id":"4ad10e00-1353-437e-9fee-2a89eb53575d",
      "books":[
        {"title":"The Paper Menagerie and Other Stories","id":"9f95697d-9aaa-41e7-8eda-79325a19e5e9"},
        {"title":"Stories of Your Life and Others","id":"8da5ecf7-e65b-4640-b08e-33a0adc2b25e"},
        {"title":"Aesop's Fables","id":"1b693784-0308-44fe-a632-6ef8cfbb18e1"}
      ]}]}]}}
    """#

  static let alexShortStoriesShelfViaOrQuery = #"""
    {"users":{
      "$":{"where":{"handle":"alex"},"fields":["handle"]},
      "bookshelves":{
        "$":{"where":{"or":[{"name":"Short Stories"}]},"fields":["name"]},
        "books":{"$":{"fields":["title"]}}
      }
    }}
    """#

  static let alexShortStoriesShelfViaAndQuery = #"""
    {"users":{
      "$":{"where":{"handle":"alex"},"fields":["handle"]},
      "bookshelves":{
        "$":{"where":{"and":[{"name":"Short Stories"},{"order":0}]},"fields":["name"]},
        "books":{"$":{"fields":["title"]}}
      }
    }}
    """#

  static let shortStoriesWithBooksAndUsersQuery = #"""
    {"bookshelves":{
      "$":{"where":{"name":"Short Stories"},"fields":["name"]},
      "books":{"$":{"fields":["title"]}},
      "users":{"$":{"fields":["handle"]}}
    }}
    """#

  static let shortStoriesWithBooksAndAlex = #"""
    {"data":{"bookshelves":[{"name":"Short Stories","id":"4ad10e00-1353-437e-9fee-2a89eb53575d",
      "books":[
        {"title":"The Paper Menagerie and Other Stories","id":"9f95697d-9aaa-41e7-8eda-79325a19e5e9"},
        {"title":"Stories of Your Life and Others","id":"8da5ecf7-e65b-4640-b08e-33a0adc2b25e"},
        {"title":"Aesop's Fables","id":"1b693784-0308-44fe-a632-6ef8cfbb18e1"}
      ],"users":[{"handle":"alex","id":"ad45e100-777a-4de8-8978-aa13200a4824"}]}]}}
    """#

  static let stopasShelfNames: [JSON?] = [
    "Worldview", "Technical", "Comedy", "Uncategorized", "Productivity", "Economics", "The Way of The Gentleman", "Behavior", "Stories from Leaders",
    "Innovation & Creativity", "Beautiful Fiction", "Book Addiction", "Philosophy", "Fun in Rome", "Investing", "Psychology",
  ]

  static let createdThenUpdatedUser = #"""
    {"data":{"users":[{"id":"99999999-0000-4000-8000-000000000001","fullName":"Full Name","handle":"handle","email":"e@mail 2"}]}}
    """#

  static let stopasJSONObjectFields = #"""
    {"data":{"users":[{"jsonField":{"hello":"world"},"otherJsonField":{"world":"hello","list":[1,{"a":null}]},
      "id":"a55a5231-5c4d-4033-b859-7790c45c22d5"}]}}
    """#

  static let firstTenBookTitles: [JSON?] = [
    "Sum", "Insurgent", "The Rational Male", "The Restaurant at the End of the Universe", "Bardelys the Magnificent", "A Promised Land",
    "The Trampling Of The Lilies", "The Prophet", "Magician: Apprentice", "Istanbul",
  ]

  static let serverWindowOfBooksDesc = #"""
    {"books":{
      "start-cursor":["000212ec-fe77-473d-9494-d29898c53b7a","6eebf15a-ed3c-4442-8869-a44a7c85a1be","000212ec-fe77-473d-9494-d29898c53b7a",
        1718118155976],
      "end-cursor":["0270a27f-1363-4f6d-93c0-39cc43d92a78","6eebf15a-ed3c-4442-8869-a44a7c85a1be","0270a27f-1363-4f6d-93c0-39cc43d92a78",
        1718118151976]
    }}
    """#

  static let bookTitlesInServerWindowDesc: [JSON?] = [
    "Norse Mythology", "Love-at-Arms", "The Young Lions", "The Hounds of God", "Which Comes First, Cardio or Weights?",
  ]

  static let serverWindowOfBooksAsc = #"""
    {"books":{
      "start-cursor":["f11c998f-d951-426b-b2b1-ffcb8d17bac5","6eebf15a-ed3c-4442-8869-a44a7c85a1be","f11c998f-d951-426b-b2b1-ffcb8d17bac5",
        1718117715976],
      "end-cursor":["f1c15604-93cd-4189-bb9a-d4ee97b95f32","6eebf15a-ed3c-4442-8869-a44a7c85a1be","f1c15604-93cd-4189-bb9a-d4ee97b95f32",
        1718117721976]
    }}
    """#

  static let firstFiveBookTitles: [JSON?] = [
    "Sum", "Insurgent", "The Rational Male", "The Restaurant at the End of the Universe", "Bardelys the Magnificent",
  ]

  static let nicoleToAlexByCreatedAtCursors = #"""
    {"users":{
      "start-cursor":["0f3d67fc-8b37-4b03-ac47-29fec4edc4f7","2ffdf0fc-1561-4fc5-96db-2210a41adfa6","2021-02-05 22:35:23.754264",1718118127976],
      "end-cursor":["ad45e100-777a-4de8-8978-aa13200a4824","2ffdf0fc-1561-4fc5-96db-2210a41adfa6","2021-01-09 18:53:07.993689",1718117855976]
    }}
    """#

  static let stopaToNicoleByCreatedAtCursors = #"""
    {"users":{
      "start-cursor":["a55a5231-5c4d-4033-b859-7790c45c22d5","2ffdf0fc-1561-4fc5-96db-2210a41adfa6","2021-01-07 18:50:43.447955",1718117867976],
      "end-cursor":["0f3d67fc-8b37-4b03-ac47-29fec4edc4f7","2ffdf0fc-1561-4fc5-96db-2210a41adfa6","2021-02-05 22:35:23.754264",1718118127976]
    }}
    """#

  static let firstTenBookTitlesAlphabetically: [JSON?] = [
    "\"Surely You're Joking, Mr. Feynman!\": Adventures of a Curious Character",
    "\"What Do You Care What Other People Think?\": Further Adventures of a Curious Character", "12 Rules for Life", "1984",
    "21 Lessons for the 21st Century", "A Conflict of Visions", "A Damsel in Distress", "A Guide to the Good Life", "A Hero Of Our Time",
    "A History of Private Life: From pagan Rome to Byzantium",
  ]

  static let userHandles = #"""
    {"data":{"users":[
      {"handle":"joe","id":"ce942051-2d74-404a-9c7d-4aa3f2d54ae4"},
      {"handle":"alex","id":"ad45e100-777a-4de8-8978-aa13200a4824"},
      {"handle":"stopa","id":"a55a5231-5c4d-4033-b859-7790c45c22d5"},
      {"handle":"nicolegf","id":"0f3d67fc-8b37-4b03-ac47-29fec4edc4f7"}
    ]}}
    """#

  static let userIds = #"""
    {"data":{"users":[
      {"id":"ce942051-2d74-404a-9c7d-4aa3f2d54ae4"},
      {"id":"ad45e100-777a-4de8-8978-aa13200a4824"},
      {"id":"a55a5231-5c4d-4033-b859-7790c45c22d5"},
      {"id":"0f3d67fc-8b37-4b03-ac47-29fec4edc4f7"}
    ]}}
    """#

  static let notUsersEntityWithOwnEmail = #"""
    {"data":{"not_users":[{"id":"a55a5231-5c4d-4033-b859-7790c45c22d5","email":"this-should-not-change-users-stopa@gmail.com"}]}}
    """#
}
