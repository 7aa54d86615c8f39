import Testing

@testable import QuireCore

/// The layout reader reads what it accepts exactly as GLib's GMarkup does when GtkBuilder calls
/// it, so the policy judges the tree GTK builds (the `layout` fuzz target compares the two
/// readers input by input; these pin what it found).
@Suite struct LayoutXMLTests {
    /// The tree in a short form: `name[attr=value,…](children)"text"`.
    func tree(_ text: String) -> String {
        do {
            return describe(try LayoutXML.parse(Array(text.utf8)))
        } catch {
            return "error at \(error.offset): \(error.message)"
        }
    }

    func describe(_ element: LayoutXML.Element) -> String {
        let attributes = element.attributes.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
        let children = element.children.map(describe).joined()
        return "\(element.name)[\(attributes)](\(children))\"\(element.text)\""
    }

    func refused(_ text: String) -> Bool { (try? LayoutXML.parse(Array(text.utf8))) == nil }

    // MARK: Comments

    /// GMarkup ends a comment at the first `>` after two dashes, the opening's own counted: `<!-->`
    /// and `<!--->` are whole comments. Reading them on to the next `-->` hid what GTK builds.
    @Test func aCommentEndsWhereGMarkupEndsIt() {
        #expect(tree("<a><!-->x<b/><!-- --></a>") == #"a[](b[]()"")"x""#)
        #expect(tree("<a><!--->x<b/><!-- --></a>") == #"a[](b[]()"")"x""#)
        #expect(tree("<a><!---->x<b/></a>") == #"a[](b[]()"")"x""#)
        #expect(tree("<a><!-- a -- b -->x<b/></a>") == #"a[](b[]()"")"x""#)
        #expect(tree("<a><!-- a --> b -->x</a>") == #"a[]()" b -->x""#)
        #expect(tree("<a><!----->x</a>") == #"a[]()"x""#)
        // Outside the root too: before it, the root is what follows; after it, text is refused.
        #expect(tree("<!--><a/><!-- -->") == #"a[]()"""#)
        #expect(tree("<!---><a/><!-- -->") == #"a[]()"""#)
        #expect(tree("<a/><!--->!--->") == "error at 10: text outside the root element")
        #expect(tree("<a><!-- x</a>") == "error at 3: a comment is not closed with '-->'")
        #expect(tree("<a><!--></a>") == #"a[]()"""#)
        // Deep nesting behind `<!-->` (GTK's stack, 12,000 boxes) meets the reader's depth cap.
        let deep = "<a><!-->" + String(repeating: "<b>", count: 300) + String(repeating: "</b>", count: 300) + "<!-- --></a>"
        #expect(tree(deep).contains("elements are nested more than \(LayoutXML.maxDepth) deep"))
    }

    /// The bypass: a button bound to `app.walkthrough` between `<!-->` and a later comment is seen
    /// (and refused at its position), as GTK would build it.
    @Test func aCommentFormCannotHideAnObjectFromThePolicy() {
        let flow = try! Flow.load(
            json:
                #"{"format": "quire.flow/1", "id": "f", "pages": [{"id": "p", "fields": [{"id": "name", "kind": "text"}]}]}"#)
        for opening in ["<!-->", "<!--->"] {
            let layout = """
                <interface><object class="GtkBox" id="page:root">\(opening)
                <child><object class="GtkButton"><property name="action-name">app.walkthrough</property></object></child>
                <!-- --><child><object class="GtkEntry" id="name"/></child></object></interface>
                """
            let found = LayoutPolicy.problems(in: Array(layout.utf8), named: "p.ui", page: 0, of: flow).map(\.message)
            #expect(found.count == 1, "\(opening): \(found)")
            #expect(found.first?.hasPrefix("p.ui:2:44: the property 'action-name' is not allowed") == true, "\(opening): \(found)")
        }
    }

    // MARK: Other passthroughs

    @Test func cdataIsTextInsideTheRootAndRefusedOutsideIt() {
        #expect(tree("<a><![CDATA[<b/>&amp;\r\n]]>x</a>") == "a[]()\"<b/>&amp;\r\nx\"")
        #expect(tree("<a><![CDATA[]]></a>") == #"a[]()"""#)
        // It once crashed the reader (a force-unwrapped empty stack).
        #expect(tree("<![CDATA[x]]><a/>") == "error at 0: a CDATA section is not allowed outside the root element")
        #expect(tree("<a/><![CDATA[x]]>") == "error at 4: a CDATA section is not allowed outside the root element")
        #expect(refused("<!ELEMENT a><a/>"))
        #expect(refused("<a/><!x>"))
    }

    @Test func onlyALeadingXMLDeclarationIsRead() {
        #expect(tree("  <?xml version=\"1.0\"?><a/>") == #"a[]()"""#)
        #expect(refused("<a/><?xml version=\"1.0\"?>"))
        #expect(refused("<a><?pi x?></a>"))
        #expect(refused("<!DOCTYPE a><a/>"))
    }

    // MARK: Line ends and whitespace

    /// GMarkup turns CR LF and a lone CR into LF in text, and CR LF, CR, LF and tab into one space
    /// in attribute values; CDATA and characters written as references are kept.
    @Test func lineEndsAreNormalizedAsGMarkupDoes() {
        #expect(tree("<a>x\r\ny\rz\n</a>") == "a[]()\"x\ny\nz\n\"")
        #expect(tree("<a>\r\r\n</a>") == "a[]()\"\n\n\"")
        #expect(tree("<a b=\"x\ty\r\nz\rw\nv\"/>") == "a[b=x y z w v]()\"\"")
        #expect(tree("<a b=\"&#9;&#10;&#13;\"/>") == "a[b=\t\n\r]()\"\"")
        #expect(tree("<a>&#13;&#10;</a>") == "a[]()\"\r\n\"")
        #expect(tree("<a b='\r\n&amp;'/>") == "a[b= &]()\"\"")
    }

    // MARK: Entities and character references

    @Test func characterReferencesAreThoseGMarkupPermits() {
        #expect(tree("<a>&#65;&#x42;&#x63;&#+68;&#x+45;&lt;&gt;&amp;&quot;&apos;</a>") == #"a[]()"ABcDE<>&"'""#)
        #expect(tree("<a>&#x10FFFF;&#xFFFD;&#xE000;&#xD7FF;&#1;</a>") == "a[]()\"\u{10FFFF}\u{FFFD}\u{E000}\u{D7FF}\u{1}\"")
        for reference in [
            "&#0;", "&#xFFFE;", "&#xFFFF;", "&#xD800;", "&#xDFFF;", "&#x110000;", "&#-1;", "&#x0x41;", "&# 65;", "&#X41;", "&#x;",
        ] {
            #expect(refused("<a>\(reference)</a>"), "\(reference)")
            #expect(refused("<a b=\"\(reference)\"/>"), "\(reference)")
        }
        #expect(refused("<a>&nbsp;</a>"))
        #expect(refused("<a>&lt</a>"))
        #expect(refused("<a>&</a>"))
    }

    // MARK: Names and attributes

    /// GMarkup takes a non-ASCII character in a name only when it is a letter; the reader takes
    /// ASCII names only.
    @Test func namesAreASCII() {
        #expect(tree("<a:b_c-d.e1 f:g_h-i.j2=\"v\"/>") == #"a:b_c-d.e1[f:g_h-i.j2=v]()"""#)
        for name in ["a\u{B7}", "\u{E9}", "a\u{6DC}", "\u{E9}t\u{E9}"] {
            #expect(refused("<\(name)/>"), "\(name)")
            #expect(refused("<a \(name)=\"\"/>"), "\(name)")
        }
        #expect(refused("<1a/>"))
        #expect(refused("<a -b=\"\"/>"))
    }

    @Test func attributesAreStricterThanGMarkupButReadAlike() {
        #expect(tree("<a x = 'one' y=\"t'o\" z='\"'/>") == #"a[x=one,y=t'o,z="]()"""#)
        #expect(refused("<a x=\"1\"y=\"2\"/>"))
        #expect(refused("<a x=\"1\" x=\"2\"/>"))
        #expect(refused("<a x=\"<\"/>"))
        let many = { (count: Int) in "<a " + (0..<count).map { "a\($0)=\"\"" }.joined(separator: " ") + "/>" }
        #expect((try? LayoutXML.parse(Array(many(LayoutXML.maxAttributes).utf8)))?.attributes.count == LayoutXML.maxAttributes)
        #expect(tree(many(LayoutXML.maxAttributes + 1)).hasSuffix("<a> has more than 1000 attributes"))
    }

    @Test func whatGMarkupReadsButTheReaderRefuses() {
        #expect(refused("\u{FEFF}<a/>"))
        #expect(refused("<a/><b/>"))
        #expect(refused("<a><b></b>"))
        #expect(refused("<a>x"))
    }
}
