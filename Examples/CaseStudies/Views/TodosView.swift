#if canImport(SwiftUI)
  import ExampleSchema
  import SharingInstant
  import SwiftUI

  /// The Sync case study: a todo list that every device edits at once.
  public struct TodosView: View {
    @State private var model = TodosModel()
    @State private var draft = ""

    public init() {}

    public var body: some View {
      List {
        Section {
          HStack {
            TextField("New todo", text: $draft).onSubmit(add)
            Button("Add", action: add).disabled(draft.isEmpty)
          }
        }
        Section("\(model.remaining) left") {
          ForEach(model.todos) { todo in
            Button {
              model.toggle(todo.id)
            } label: {
              Label(todo.title, systemImage: todo.done ? "checkmark.circle.fill" : "circle")
                .strikethrough(todo.done)
            }
          }
          .onDelete { offsets in
            for index in offsets { model.remove(model.todos[index].id) }
          }
        }
        if let error = model.error {
          Section("Refused") { Text(String(describing: error)).foregroundStyle(.red) }
        }
      }
      .toolbar { Button("Clear done", action: model.clearCompleted) }
      .navigationTitle("Todos")
    }

    private func add() {
      model.add(draft)
      draft = ""
    }
  }
#endif
