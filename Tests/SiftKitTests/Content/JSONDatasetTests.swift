import Foundation
import Testing
import SiftKit

/// The records of a JSON text as maps, so one literal states both the values and the key order.
private func rows(_ text: String) throws -> [Value] {
    try JSONDataset.records(from: text, path: "a.json").map { .map($0.fields) }
}

/// The error line reading prints, or "no error".
private func errorLine(_ text: String) -> String {
    do {
        _ = try JSONDataset.records(from: text, path: "Content/candies/candies.json")
        return "no error"
    } catch {
        return String(describing: error)
    }
}

/// Runs `body` on a thread with a 512 KiB stack, the kind builds use, so deep input that
/// recursed would crash the test run instead of passing.
private func onSmallStack(_ body: @escaping @Sendable () -> String) -> String {
    let box = ResultBox()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = body()
        done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
    return box.value!
}

/// Carries the result back from the thread; the semaphore orders the write before the read.
private final class ResultBox: @unchecked Sendable {
    var value: String?
}

struct JSONDatasetTests {
    @Test func readsArrayOfObjects() throws {
        #expect(try rows(#"[{"name": "Mars", "price": 1.20}, {"name": "Mentos", "hard": true}]"#)
            == [["name": "Mars", "price": .number("1.20")], ["name": "Mentos", "hard": true]])
    }

    @Test func readsEmptyArray() throws {
        #expect(try rows(" [ ] ") == [])
    }

    @Test func readsEmptyObject() throws {
        #expect(try rows("[{}]") == [.map(Fields())])
    }

    @Test func keepsKeyOrder() throws {
        #expect(try JSONDataset.records(from: #"[{"z": 1, "a": null, "m": []}]"#, path: "a.json").map(\.fields.keys)
            == [["z", "a", "m"]])
    }

    @Test func reachesNestedValuesByDottedPath() throws {
        let records = try JSONDataset.records(from: #"[{"maker": {"name": "Mars Inc.", "hq": {"city": "McLean"}}}]"#, path: "a.json")
        #expect(records.map { $0.fields.value(at: "maker.hq.city") } == ["McLean"])
    }

    @Test func readsListsAndNulls() throws {
        #expect(try rows(#"[{"tags": ["a", 1, null, {"b": false}]}]"#) == [["tags": ["a", 1, nil, ["b": false]]]])
    }

    @Test func recordsWhereEachObjectStarts() throws {
        #expect(try JSONDataset.records(from: "[\n  {\"a\": 1},\n  {\"a\": 2}, {\"é\": 3}\n]", path: "a.json").map(\.position.description)
            == ["a.json:2:3", "a.json:3:3", "a.json:3:13"])
    }

    @Test func readsByteOrderMarkStrippedBySourceText() throws {
        let text = try SourceText.decode([0xEF, 0xBB, 0xBF] + Array(#"[{"a": "b"}]"#.utf8), path: "a.json")
        #expect(try rows(text) == [["a": "b"]])
    }

    @Test func reportsTopLevelObject() {
        #expect(errorLine(#"  {"a": 1}"#) == "Content/candies/candies.json:1:3: error: expected an array of objects, found an object")
    }

    @Test func reportsEmptyFile() {
        #expect(errorLine(" \n") == "Content/candies/candies.json:2:1: error: expected an array of objects, found an empty file")
    }

    @Test func reportsTopLevelGarbage() {
        #expect(errorLine("<html>") == "Content/candies/candies.json:1:1: error: expected an array of objects, found '<'")
    }

    @Test func reportsElementThatIsNotAnObject() {
        #expect(errorLine("[{\"a\": 1},\n 42]") == "Content/candies/candies.json:2:2: error: expected an object, found a number")
    }

    @Test func reportsNestedArrayElement() {
        #expect(errorLine("[[]]") == "Content/candies/candies.json:1:2: error: expected an object, found an array")
    }

    @Test func reportsTrailingComma() {
        #expect(errorLine("[{\"a\": 1},\n]") == "Content/candies/candies.json:1:10: error: trailing comma")
    }

    @Test func reportsMissingComma() {
        #expect(errorLine("[{} {}]") == "Content/candies/candies.json:1:5: error: expected ',' or ']', found '{'")
    }

    @Test func reportsUnclosedArray() {
        #expect(errorLine("[{\"a\": 1}") == "Content/candies/candies.json:1:10: error: unexpected end of input")
    }

    @Test func reportsUnclosedArrayAfterComma() {
        #expect(errorLine("[{},") == "Content/candies/candies.json:1:5: error: unexpected end of input")
    }

    @Test func reportsErrorInsideARow() {
        #expect(errorLine("[\n{\"name\": \"Mars\",\n \"price\": 1.}]")
            == "Content/candies/candies.json:3:11: error: invalid number")
    }

    @Test func reportsTrailingGarbage() {
        #expect(errorLine("[{}] []") == "Content/candies/candies.json:1:6: error: unexpected text after the JSON value")
    }

    @Test func reportsDeepArraysOnSmallStack() {
        let text = "[" + String(repeating: "[", count: 10_000)
        #expect(onSmallStack { errorLine(text) }
            == "Content/candies/candies.json:1:2: error: expected an object, found an array")
    }

    @Test func reportsDeepArraysInsideARowOnSmallStack() {
        let text = #"[{"a": "# + String(repeating: "[", count: 10_000)
        #expect(onSmallStack { errorLine(text) }
            == "Content/candies/candies.json:1:518: error: nesting deeper than 512 levels")
    }

    @Test func reportsDeepObjectsOnSmallStack() {
        let text = "[" + String(repeating: #"{"a":"#, count: 10_000)
        #expect(onSmallStack { errorLine(text) }
            == "Content/candies/candies.json:1:2557: error: nesting deeper than 512 levels")
    }

    @Test func releasesDeepestAcceptedNestingOnSmallStack() {
        let text = "[" + String(repeating: #"{"a":"#, count: 511) + "1" + String(repeating: "}", count: 511) + "]"
        #expect(onSmallStack { errorLine(text) } == "no error")
    }
}
