import Foundation
import QuireCore

/// `quire test --watch PATH…` (issue 38 item 2): after a run, which scripts to run again when
/// files change — each script whose own file changed (or that is new), and each whose flow file
/// or one of that flow's page layouts changed. Files are compared by their status (modification
/// time to the nanosecond, size, inode: a save by rename is a new inode), polled, so it needs
/// nothing but the file system and works the same wherever the harness builds.
public struct ScriptWatch {
    /// What a file's status says of its contents; nil for a file that is not there.
    struct Stamp: Hashable {
        var seconds: Int
        var nanoseconds: Int
        var size: Int
        var inode: UInt

        init?(_ path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            seconds = Int(status.st_mtim.tv_sec)
            nanoseconds = Int(status.st_mtim.tv_nsec)
            size = Int(status.st_size)
            inode = UInt(status.st_ino)
        }
    }

    let paths: [String]
    /// Each script's path → the files it reads besides itself (its flow file, the flow's layouts);
    /// nil for a JSON file in a folder that is not a script (a flow beside its scripts).
    private var dependencies: [String: [String]?] = [:]
    private var stamps: [String: Stamp?] = [:]

    /// Watches the scripts under `paths` as they are now.
    public init(paths: [String]) {
        self.paths = paths
        for candidate in Suite.discover(paths) where candidate.problem == nil {
            learn(candidate.path)
        }
    }

    /// Reads what `script` depends on and stamps it and them as they are now. Paths are
    /// normalized (`./a.json` and `a.json` are one file).
    private mutating func learn(_ script: String) {
        var files: [String] = []
        let load = ScriptLoader.load(script, flows: FlowCache())
        if case .notAScript = load {
            dependencies[script] = .some(nil)
            stamps[FileWalker.normalized(script)] = Stamp(script)
            return
        }
        if case .script(let loaded) = load, let flowFile = loaded.flowFile {
            files.append(FileWalker.normalized(flowFile))
            let folder = Flow.folder(ofFile: flowFile)
            for layout in loaded.flow.pages.compactMap(\.layout) {
                let file = FileWalker.normalized(folder + "/" + layout)
                if !files.contains(file) { files.append(file) }
            }
        }
        dependencies[script] = files
        for file in [FileWalker.normalized(script)] + files { stamps[file] = Stamp(file) }
    }

    /// The changes since the last call (or since `init`): the files that changed, and the
    /// scripts to run again, in the stable order of `Suite.discover`. A script removed is
    /// forgotten; a new one is run.
    public mutating func changes() -> (files: [String], scripts: [Suite.Candidate]) {
        let candidates = Suite.discover(paths).filter { $0.problem == nil }
        var changedFiles: [String] = []
        var seen = Set<String>()
        func changed(_ file: String) -> Bool {
            let now = Stamp(file)
            guard let before = stamps[file], before == now else {
                if seen.insert(file).inserted { changedFiles.append(file) }
                return true
            }
            return false
        }
        var rerun: [Suite.Candidate] = []
        for candidate in candidates {
            let script = candidate.path
            let known = dependencies[script]
            // Every file is looked at (not only up to the first change), so each is named once.
            let ownChange = changed(FileWalker.normalized(script))
            guard let known else {
                // New: run it, if it is a script.
                learn(script)
                if dependencies[script] != .some(nil) { rerun.append(candidate) }
                continue
            }
            guard let files = known else {
                // A file that was not a script: run it if it has become one.
                if ownChange {
                    learn(script)
                    if dependencies[script] != .some(nil) { rerun.append(candidate) }
                }
                continue
            }
            let flowChange = files.map(changed).contains(true)
            if ownChange || flowChange { rerun.append(candidate) }
        }
        let present = Set(candidates.map(\.path))
        for script in dependencies.keys where !present.contains(script) { dependencies[script] = nil }
        for candidate in rerun { learn(candidate.path) }
        // Dependencies of scripts not run again may have changed too only if a rerun saw them:
        // stamp every changed file as it is now.
        for file in changedFiles { stamps[file] = Stamp(file) }
        return (changedFiles, rerun)
    }
}
