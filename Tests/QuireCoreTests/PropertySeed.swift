import Foundation
import PropertyBased
import Testing

/// Reproducible property tests. swift-property-based draws a new random seed for every run and,
/// when a case fails, prints it (`.fixedSeed("…")`). This trait adds the command that reruns
/// exactly that case, and reads it back:
///
///     QUIRE_PROPERTY_SEED='<seed>' swift test --filter 'PropertyTests/<test name>'
///
/// With `QUIRE_PROPERTY_SEED` set, each property check of the test runs once, on that seed,
/// instead of on random ones (the library's fixed-seed mode: a run on a seed that passes is
/// reported too, so that a stale seed is not mistaken for a fix).
struct PropertySeedTrait: TestTrait, TestScoping {
    static let variable = "QUIRE_PROPERTY_SEED"

    /// Scoped once around the whole test: a parameterized test runs every case on the seed, so
    /// the case that failed fails again, and the library sees that failure.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? self : nil
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if let seed = ProcessInfo.processInfo.environment[Self.variable] {
            guard let generator = Xoshiro(seed: seed) else {
                Issue.record("\(Self.variable)='\(seed)' is not a seed printed by a property test")
                return
            }
            let (a, b, c, d) = generator.currentState
            await FixedSeedTrait.fixedSeed(a, b, c, d).provideScope(for: test, testCase: testCase, performing: function)
            return
        }
        let name = test.name.prefix { $0 != "(" }
        let hint = IssueHandlingTrait.compactMapIssues { issue in
            var issue = issue
            let text = issue.comments.map(\.rawValue).joined(separator: "\n")
            if let seed = Self.seed(in: text) {
                issue.comments.append(
                    Comment(rawValue: "Rerun exactly this case: \(Self.variable)='\(seed)' swift test --filter 'PropertyTests/\(name)'"))
            }
            return issue
        }
        try await hint.provideScope(for: test, testCase: testCase, performing: function)
    }

    /// The seed in the library's hint, `.fixedSeed("SEED")`.
    static func seed(in text: String) -> String? {
        guard let start = text.range(of: #".fixedSeed(""#)?.upperBound,
            let end = text[start...].firstIndex(of: "\"")
        else { return nil }
        return String(text[start..<end])
    }
}

extension Trait where Self == PropertySeedTrait {
    /// Prints how to rerun a failing case and reruns it from `QUIRE_PROPERTY_SEED`.
    static var reproducibleSeed: Self { Self() }
}
