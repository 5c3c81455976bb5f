import Testing
import SiftKit

private func titles(_ text: String) -> [String] {
    TextDataset.records(from: text, path: "a.txt").map { $0.fields["title"]?.text ?? "?" }
}

struct TextDatasetTests {
    @Test func readsOneTitleALine() {
        #expect(titles("Albania\nAndorra\n") == ["Albania", "Andorra"])
    }

    @Test func trimsLines() {
        #expect(titles("  Côte d'Ivoire \t\n") == ["Côte d'Ivoire"])
    }

    @Test func skipsBlankLines() {
        #expect(titles("\nA\n   \n\t\nB") == ["A", "B"])
    }

    @Test func handlesCRLF() {
        #expect(titles("A\r\nB\r\n") == ["A", "B"])
    }

    @Test func readsLastLineWithoutNewline() {
        #expect(titles("A\nB") == ["A", "B"])
    }

    @Test func readsEmptyText() {
        #expect(titles("") == [])
    }

    @Test func keepsInnerSpaces() {
        #expect(titles("Bosnia and  Herzegovina") == ["Bosnia and  Herzegovina"])
    }

    @Test func usesTitleAsTheOnlyField() {
        #expect(TextDataset.records(from: "A", path: "a.txt").map(\.fields.keys) == [["title"]])
    }

    @Test func recordsLineOfEachItem() {
        #expect(TextDataset.records(from: "\nA\r\n\r\nB", path: "c/a.txt").map(\.position.description)
            == ["c/a.txt:2:1", "c/a.txt:4:1"])
    }
}
