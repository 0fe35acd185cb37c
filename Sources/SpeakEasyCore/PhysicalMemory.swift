#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The machine's memory, so work that cannot fit is refused up front with a clear message instead of
/// dying in an allocation halfway through.
package enum PhysicalMemory {
    /// The physical memory in bytes; nil where the system does not say.
    package static var bytes: Int? {
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let pageSize = sysconf(Int32(_SC_PAGESIZE))
        guard pages > 0, pageSize > 0 else { return nil }
        let (product, overflow) = pages.multipliedReportingOverflow(by: pageSize)
        return overflow ? nil : product
    }
}
