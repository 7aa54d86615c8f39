import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT, SIGTERM and SIGHUP, turned into bytes on a pipe: the handler only writes the signal's
/// number there (all a signal handler may safely do), and a thread reading the other end does the
/// rest with ordinary locks. `quire test` (`Interruption`) and `quire map`'s Graphviz run share it.
public enum SignalPipe {
    /// The signals it takes.
    public static let signals = [SIGINT, SIGTERM, SIGHUP]
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Opens a pipe, points the handlers of `signals` at it and unblocks them on this thread (a
    /// parent may have blocked them: a test runner's thread, a shell's job control; threads
    /// started after this inherit the mask). Its ends, or nil when no pipe could be made. A later
    /// call points the handlers at a new pipe.
    public static func install() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        writeEnd = ends[1]
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals {
            sigaddset(&unblock, number)
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = Glibc.write(SignalPipe.writeEnd, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        return (ends[0], ends[1])
    }

    /// The handlers back to the default (the process ends on a signal).
    public static func uninstall() {
        for number in signals { signal(number, SIG_DFL) }
    }

    /// "SIGINT", "SIGTERM", "SIGHUP", else "signal N".
    public static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}
