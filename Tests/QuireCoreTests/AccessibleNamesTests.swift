import Testing

@testable import QuireCore

/// What assistive technology is told, worded by the core so every front says the same: the page
/// name a page change announces, and a duration wheel's value in words.
@Suite struct AccessibleNamesTests {
    @Test func thePageNameIsItsTitleAndWhereItStands() throws {
        var session = Session(flow: try demoFlow())
        #expect(session.chrome.pageName == "Welcome — page 1 of 5")
        session.run(.tap(.button(.next)), .settle)
        #expect(session.chrome.pageName == "About you — page 2 of 5")
        #expect(session.presentation["chrome"]?["pageName"] == "About you — page 2 of 5")
        var japanese = Session(flow: try demoFlow(), locale: "ja")
        japanese.run(.tap(.button(.next)), .settle)
        #expect(japanese.chrome.pageName == "あなたについて — 5ページ中2ページ目")
        // Hiding a page renumbers the others (the reminder page goes with its toggle).
        session.run(.tap(.field("userName")), .type("Ada"), .tap(.button(.next)), .settle, .tap(.field("reminders")))
        #expect(session.chrome.pageName == "Your focus time — page 3 of 4")
    }

    @Test func aPageWithoutATitleIsNamedByItsPlace() throws {
        #expect(Strings(locale: "en").pageName(nil, 2, 3) == "Page 2 of 3")
        #expect(Strings(locale: "en").pageName("", 2, 3) == "Page 2 of 3")
        #expect(Strings(locale: "ja").pageName(nil, 2, 3) == "3ページ中2ページ目")
    }

    @Test func aWheelsValueIsInWords() throws {
        var session = Session(flow: try demoFlow())
        session.run(.tap(.button(.next)), .settle, .tap(.field("userName")), .type("Ada"), .tap(.button(.next)), .settle)
        session.run(.tap(.field("focusTime")))
        let wheels = try #require(session.chrome.input?.wheels)
        #expect(wheels.map(\.valueText) == ["0 hours", "25 minutes"])
        session.run(.key(.up))
        #expect(session.chrome.input?.wheels.map(\.valueText) == ["1 hour", "25 minutes"])
        #expect(session.presentation["chrome"]?["input"]?["wheels"]?.arrayValue?.first?["valueText"] == "1 hour")
        let ja = Strings(locale: "ja")
        #expect([ja.wheelValue(.hours, 1), ja.wheelValue(.minutes, 25), ja.wheelValue(.seconds, 30)] == ["1時間", "25分", "30秒"])
        #expect(Strings(locale: "en").wheelValue(.seconds, 1) == "1 second")
    }

    @Test func reducedMotionLandsMovesAtOnceAndPausesAutoAdvance() throws {
        var session = Session(flow: try demoFlow())
        session.reducedMotion = true
        session.run(.tap(.button(.next)))
        #expect(session.currentIndex == 1 && session.pager.position == 1 && session.transition == nil)
        #expect(!session.pagerPresentation.needsClock)
        let flow = try Flow.load(
            json:
                #"{"format": "quire.flow/1", "id": "show", "paging": {"animationMs": 300, "autoAdvanceMs": 1000}, "pages": [{"id": "a"}, {"id": "b"}]}"#
        )
        var slideshow = Session(flow: flow)
        #expect(slideshow.pagerPresentation.needsClock)
        slideshow.reducedMotion = true
        #expect(!slideshow.pagerPresentation.needsClock)
        slideshow.run(.tick(5000))
        #expect(slideshow.currentIndex == 0)
        // Animations on again: auto-advance goes on counting.
        slideshow.reducedMotion = false
        #expect(slideshow.pagerPresentation.needsClock)
        slideshow.run(.tick(1000), .settle)
        #expect(slideshow.currentIndex == 1)
    }
}
