/// Passes 2 and 3 of `MustacheParser`: the whitespace rules of the Mustache spec.
extension MustacheTokens {
    /// Pass 2: marks standalone lines (a line holding only whitespace and one non-variable tag,
    /// or only inheritance tags), whose whitespace and newline disappear from the output.
    mutating func markStandaloneLines() {
        for li in lines.indices {
            var lineTags: [Int] = []
            var onlyWhitespace = true
            for piece in lines[li].pieces {
                switch piece {
                case .text(let a, let b):
                    if bytes[a..<b].contains(where: { !Self.isBlank($0) }) { onlyWhitespace = false }
                case .newline:
                    break
                case .tag(let t):
                    lineTags.append(t)
                }
            }
            guard onlyWhitespace, let first = lineTags.first else { continue }
            if lineTags.count == 1 {
                if case .variable = tags[first].kind { continue }
            } else if !lineTags.allSatisfy(isInheritanceTag) {
                continue
            }
            lines[li].standalone = true
            if case .text(let a, let b)? = lines[li].pieces.first {
                lines[li].leading = String(decoding: bytes[a..<b], as: UTF8.self)
            }
            if lineTags.count == 2, tags[first].kind == .block, closeOf[first] == lineTags[1] {
                lines[li].keepsNewline = true
            }
        }
    }

    private func isInheritanceTag(_ t: Int) -> Bool {
        switch tags[t].kind {
        case .parent, .block: return true
        case .close: return tags[t].closes == .parent || tags[t].closes == .block
        default: return false
        }
    }

    /// A standalone block's lines lose their common indentation, which becomes the block's
    /// indentation (or the tag's own, when the lines have none); whatever fills the block is
    /// indented by it (pass 3, spec "~inheritance"). Outer blocks go first, so inner blocks
    /// measure what the outer left.
    mutating func reindentBlocks() {
        for t in tags.indices where tags[t].kind == .block {
            let openLine = tagLine[t]
            guard lines[openLine].standalone, let closeTag = closeOf[t] else { continue }
            let closeLine = tagLine[closeTag]
            let last = lines[closeLine].standalone ? closeLine - 1 : closeLine
            let content = closeLine > openLine && last > openLine ? Array((openLine + 1)...last) : []

            var common: [UInt8]? = nil
            for li in content {
                guard let lead = leadingWhitespace(li) else { continue }
                if let c = common {
                    common = Array(zip(c, lead).prefix { $0 == $1 }.map(\.0))
                } else {
                    common = lead
                }
            }
            let strip = common ?? []
            if !strip.isEmpty {
                for li in content { removeLeading(strip.count, from: li) }
            }
            let ownIndent = isFirstTag(t, onLine: openLine) ? lines[openLine].leading : ""
            blockIndent[t] = strip.isEmpty ? ownIndent : String(decoding: strip, as: UTF8.self)
        }
    }

    /// The whitespace a line starts with; nil for a blank line, which sets no indentation.
    private func leadingWhitespace(_ li: Int) -> [UInt8]? {
        let line = lines[li]
        if line.standalone { return Array(line.leading.utf8) }
        switch line.pieces.first {
        case .text(let a, let b)?:
            var k = a
            while k < b, Self.isBlank(bytes[k]) { k += 1 }
            if k == b, line.pieces.count <= 2, line.pieces.count == 1 || line.pieces[1].isNewline { return nil }
            return Array(bytes[a..<k])
        case .newline?, nil:
            return nil
        case .tag?:
            return []
        }
    }

    private mutating func removeLeading(_ count: Int, from li: Int) {
        if lines[li].standalone {
            lines[li].leading = String(decoding: lines[li].leading.utf8.dropFirst(count), as: UTF8.self)
        } else if case .text(let a, let b)? = lines[li].pieces.first {
            var k = a
            while k < b, k < a + count, Self.isBlank(bytes[k]) { k += 1 }
            lines[li].pieces[0] = .text(k, b)
        }
    }

    private func isFirstTag(_ t: Int, onLine li: Int) -> Bool {
        for piece in lines[li].pieces {
            if case .tag(let first) = piece { return first == t }
        }
        return false
    }
}
