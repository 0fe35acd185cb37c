#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-shot C handler for signals: it runs for the first signal of a kind, and the next takes the
/// default action (SA_RESETHAND), so a second Ctrl-C ends the process at once. A handler may only
/// touch what is async-signal-safe: an atomic, a table made in advance, `unlink`, `raise`.
package enum SignalHandler {
    package static func installOnce(for signals: [Int32], _ handler: @convention(c) (Int32) -> Void) {
        for signal in signals {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handler
            #else
            action.__sigaction_u.__sa_handler = handler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
            sigaction(signal, &action, nil)
        }
    }
}
