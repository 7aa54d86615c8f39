import Testing

@testable import QuireCore

/// The precedence of ignore reasons (CONTRACT §3, amended; docs/session-semantics.md): what the
/// session is doing comes before whether the target exists, which comes before its state.
@Suite struct IgnorePrecedenceTests {
    static func reason(_ notifications: [SessionNotification]) -> IgnoreReason? {
        guard notifications.count == 1, case .ignored(_, _, let reason) = notifications[0] else { return nil }
        return reason
    }

    @Test func anUnknownFieldTappedDuringATransitionIsTransitionInProgress() throws {
        var session = try Session(flow: pagesFlow(3, paging: #"{"animationMs": 250}"#))
        session.send(.tap(.button(.next)))
        #expect(Self.reason(session.send(.tap(.field("nosuchfield")))) == .transitionInProgress)
        session.send(.settle)
        #expect(Self.reason(session.send(.tap(.field("nosuchfield")))) == .unknownField)
        session.send(.dragBegin)
        #expect(Self.reason(session.send(.tap(.field("nosuchfield")))) == .transitionInProgress)
    }

    @Test func aHiddenIndicatorDuringADragIsDragInProgress() throws {
        var session = try Session(flow: pagesFlow(2, paging: #"{"animationMs": 0, "indicator": {"style": "none"}}"#))
        #expect(Self.reason(session.send(.tap(.indicatorPage(5)))) == .indicatorHidden)
        session.send(.dragBegin)
        #expect(Self.reason(session.send(.tap(.indicatorPage(5)))) == .dragInProgress)
        #expect(Self.reason(session.send(.tap(.indicatorRight))) == .dragInProgress)
    }

    @Test func aDisabledButtonDuringADragIsDragInProgress() throws {
        var session = try Session(flow: pagesFlow(3))
        #expect(Self.reason(session.send(.tap(.button(.back)))) == .disabled)
        session.send(.dragBegin)
        #expect(Self.reason(session.send(.tap(.button(.back)))) == .dragInProgress)
    }

    /// docs/session-semantics.md's precedence list: four tiers that name every reason exactly once.
    @Test func theDocumentedOrderNamesEveryReasonOnce() throws {
        let doc = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/session-semantics.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "**Precedence**"))
        let end = try #require(doc.range(of: "So during a drag", range: start.upperBound..<doc.endIndex))
        // The numbered items, each with its indented continuation lines.
        var items: [String] = []
        for line in doc[start.upperBound..<end.lowerBound].split(separator: "\n") {
            if line.first?.isNumber == true {
                items.append(String(line))
            } else if line.hasPrefix("   "), !items.isEmpty {
                items[items.count - 1] += " " + line
            }
        }
        #expect(items.count == 4)
        var named: [String: Int] = [:]
        for item in items {
            for piece in item.split(separator: "`", omittingEmptySubsequences: false).enumerated() where piece.offset % 2 == 1 {
                named[String(piece.element), default: 0] += 1
            }
        }
        for reason in IgnoreReason.allCases {
            #expect(named[reason.rawValue] == 1, "\(reason.rawValue) is named \(named[reason.rawValue] ?? 0) times in the list")
        }
        #expect(Set(named.keys) == Set(IgnoreReason.allNames))
    }
}
