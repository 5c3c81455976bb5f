import Testing
@testable import SiftKit

private func render(_ source: String, _ context: Value = [:], partials: [String: String] = [:]) throws -> String {
    var templates: [String: MustacheTemplate] = [:]
    for (name, text) in partials { templates[name] = try MustacheTemplate(source: text, path: "Templates/partials/\(name).mustache") }
    return try MustacheTemplate(source: source, path: "Templates/page.mustache").render(context, partials: templates)
}

/// The full `path:line:column: error: message` line a template fails with, at parse or render time.
private func failure(_ source: String, path: String = "Templates/page.mustache", partials: [String: String] = [:]) -> String? {
    do {
        var templates: [String: MustacheTemplate] = [:]
        for (name, text) in partials { templates[name] = try MustacheTemplate(source: text, path: "Templates/partials/\(name).mustache") }
        _ = try MustacheTemplate(source: source, path: path).render([:], partials: templates)
        return nil
    } catch let error as SiftError {
        return error.description
    } catch {
        return "\(error)"
    }
}

// MARK: Sift's rules

@Test func escapesApostrophes() throws {
    #expect(try render("{{name}}", ["name": "Jerry's"]) == "Jerry&#39;s")
}

@Test func tripleMustacheDoesNotEscape() throws {
    #expect(try render("{{{html}}}|{{& html}}", ["html": "<em>'hi'</em>"]) == "<em>'hi'</em>|<em>'hi'</em>")
}

@Test func emptyStringIsFalsey() throws {
    #expect(try render("{{#s}}yes{{/s}}{{^s}}no{{/s}}", ["s": ""]) == "no")
}

@Test func emptyListIsFalsey() throws {
    #expect(try render("{{#l}}yes{{/l}}{{^l}}no{{/l}}", ["l": []]) == "no")
}

@Test func numbersPrintAsWritten() throws {
    #expect(try render("{{price}} {{count}}", ["price": .number("2.50"), "count": 3]) == "2.50 3")
}

@Test func booleansPrintAsWords() throws {
    #expect(try render("{{yes}} {{no}}", ["yes": true, "no": false]) == "true false")
}

@Test func listsAndMapsPrintNothing() throws {
    #expect(try render("[{{l}}][{{m}}]", ["l": [1, 2], "m": ["a": 1]]) == "[][]")
}

@Test func missingNamesPrintNothing() throws {
    #expect(try render("[{{nope}}][{{a.b.c}}]", ["a": ["b": 1]]) == "[][]")
}

@Test func dottedNamesFollowNestedFields() throws {
    let context: Value = ["site": ["author": ["name": "Ada"]]]
    #expect(try render("{{site.author.name}}", context) == "Ada")
}

@Test func dottedNamesResolveInTheContextThatHoldsTheHead() throws {
    let context: Value = ["page": ["title": "Inner"], "items": [["page": ["slug": "x"]]]]
    #expect(try render("{{#items}}[{{page.title}}]{{/items}}", context) == "[]")
}

@Test func aKeyWithDotsIsTriedFirstAsInFields() throws {
    #expect(try render("{{price.usd}}", ["price.usd": "4"]) == "4")
}

@Test func sectionsPushMapsOnTheContextStack() throws {
    let context: Value = ["site": "Sift", "page": ["title": "Candies"]]
    #expect(try render("{{#page}}{{title}} – {{site}}{{/page}}", context) == "Candies – Sift")
}

@Test func sectionsIterateListsWithTheImplicitIterator() throws {
    #expect(try render("{{#tags}}<{{.}}>{{/tags}}", ["tags": ["a", "b&c"]]) == "<a><b&amp;c>")
}

@Test func truthyScalarsRenderTheSectionOnce() throws {
    #expect(try render("{{#n}}[{{.}}]{{/n}}", ["n": .number("0")]) == "[0]")
}

@Test func standaloneTagsLeaveNoBlankLines() throws {
    let source = "<ul>\n  {{#items}}\n  <li>{{.}}</li>\n  {{/items}}\n</ul>\n"
    #expect(try render(source, ["items": ["a", "b"]]) == "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>\n")
}

@Test func standalonePartialsAreIndented() throws {
    let source = "<nav>\n  {{> links}}\n</nav>\n"
    let out = try render(source, [:], partials: ["links": "<a>1</a>\n\n<a>2</a>\n"])
    #expect(out == "<nav>\n  <a>1</a>\n\n  <a>2</a>\n</nav>\n")
}

@Test func childTemplatesFillTheLayoutsBlocks() throws {
    let layout = "<title>{{$title}}Sift{{/title}}</title>\n<main>\n  {{$content}}\n  {{/content}}\n</main>\n"
    let page = "{{< layout}}\n{{$title}}{{name}}{{/title}}\n{{$content}}\n<h1>{{name}}</h1>\n<p>Hi</p>\n{{/content}}\n{{/ layout}}\n"
    let out = try render(page, ["name": "Candies"], partials: ["layout": layout])
    #expect(out == "<title>Candies</title>\n<main>\n  <h1>Candies</h1>\n  <p>Hi</p>\n</main>\n")
}

/// Spec "~inheritance" (Standalone block): `{{$b}}{{/b}}` alone on a line keeps its newline.
@Test func aBlockOpenedAndClosedOnOneLineKeepsItsNewline() throws {
    let layout = "<main>\n  {{$content}}{{/content}}\n</main>\n"
    let page = "{{< layout}}{{$content}}\n<p>Hi</p>\n{{/content}}{{/layout}}"
    #expect(try render(page, partials: ["layout": layout]) == "<main>\n  <p>Hi</p>\n\n</main>\n")
}

@Test func delimiterChangesApplyToTheRestOfTheTemplate() throws {
    #expect(try render("{{=<% %>=}}<% name %> {{name}}", ["name": "x"]) == "x {{name}}")
}

@Test func aTemplateRendersConcurrently() async throws {
    let template = try MustacheTemplate(source: "{{#items}}{{.}},{{/items}}", path: "t")
    let results = try await withThrowingTaskGroup(of: String.self) { group in
        for i in 0..<64 {
            group.addTask { try template.render(["items": [.number(String(i)), "x"]], partials: [String: MustacheTemplate]()) }
        }
        var all: [String] = []
        for try await r in group { all.append(r) }
        return all
    }
    #expect(Set(results).count == 64)
}

// MARK: Errors

@Test func reportsAnUnclosedSection() {
    #expect(failure("<ul>\n  {{#items}}\n  <li>{{.}}</li>\n") == "Templates/page.mustache:2:3: error: unclosed section 'items' opened here")
}

@Test func reportsAMismatchedClose() {
    #expect(failure("{{#a}}\n{{#b}}x{{/a}}") == "Templates/page.mustache:2:8: error: '/a' closes 'b'")
}

@Test func reportsACloseWithNothingOpen() {
    #expect(failure("x{{/a}}") == "Templates/page.mustache:1:2: error: '/a' closes nothing: no section is open")
}

@Test func reportsAnUnclosedTag() {
    #expect(failure("Hello {{name") == "Templates/page.mustache:1:7: error: unclosed tag: no '}}' after '{{'")
}

@Test func reportsAnUnclosedTripleMustache() {
    #expect(failure("{{{name}}") == "Templates/page.mustache:1:1: error: unclosed tag: no '}}}' after '{{{'")
}

@Test func reportsABadDelimiterChange() {
    #expect(failure("ok\n{{=<%=}}") == "Templates/page.mustache:2:1: error: bad delimiter change '=<%=': expected two delimiters separated by a space, as in {{=<% %>=}}")
}

@Test func reportsAnEmptyTag() {
    #expect(failure("a {{ }} b") == "Templates/page.mustache:1:3: error: empty tag '{{ }}'")
}

@Test func countsColumnsInUnicodeScalars() {
    #expect(failure("Crème {{/x}}") == "Templates/page.mustache:1:7: error: '/x' closes nothing: no section is open")
}

@Test func reportsAMissingPartial() {
    #expect(failure("<body>\n  {{> sidebar}}\n</body>") == "Templates/page.mustache:2:3: error: no template named 'sidebar'")
}

@Test func reportsAMissingParent() {
    #expect(failure("{{< layout}}{{/layout}}") == "Templates/page.mustache:1:1: error: no template named 'layout'")
}

@Test func reportsAMissingPartialInsideAPartial() {
    let out = failure("{{> a}}", partials: ["a": "x\n{{> b}}"])
    #expect(out == "Templates/partials/a.mustache:2:1: error: no template named 'b'")
}

@Test func reportsEndlessPartialRecursion() {
    let out = failure("{{> loop}}", partials: ["loop": "x{{> loop}}"])
    #expect(out == "Templates/partials/loop.mustache:1:2: error: '{{>loop}}' nests templates more than 64 levels deep")
}

@Test func stopsSectionsThatRepeatEachOtherExponentially() throws {
    // Each level iterates the outer list again (its items have no "list"): 3^20 sections while
    // writing nothing. FuzzMustache found the like through partials, running for minutes.
    let source = String(repeating: "{{#list}}", count: 20) + String(repeating: "{{/list}}", count: 20)
    let template = try MustacheTemplate(source: source, path: "Templates/page.mustache")
    let context: Value = ["list": .list([.string("a"), .string("b"), .string("c")])]
    do {
        _ = try template.renderUTF8(context, partials: [String: MustacheTemplate](), stepLimit: 10_000, outputLimit: MustacheRenderer.maxOutput)
        Issue.record("rendered")
    } catch let error as SiftError {
        #expect(error.description == "Templates/page.mustache:1:172: error: '{{#list}}' makes the page enter sections and templates 10001 times for 0 bytes: do partials or sections repeat each other?")
    }
}

@Test func reportsEndlessInheritanceRecursion() {
    let out = failure("{{< a}}{{/a}}", partials: ["a": "{{< a}}{{/a}}"])
    #expect(out == "Templates/partials/a.mustache:1:1: error: '{{<a}}' nests templates more than 64 levels deep")
}
