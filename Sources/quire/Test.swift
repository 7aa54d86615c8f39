import ArgumentParser

struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Replay session scripts headlessly.")
    func run() throws {}
}

struct GenerateSessions: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "generate-sessions", abstract: "Generate benchmark scripts.")
    func run() throws {}
}
