import NIOCore
import NIOPosix
import SpeakEasyCore
import Testing

@testable import SpeakEasyServer

/// A server's own event loops end only after the last request task that prefers them: a task whose
/// client has gone may still be answering, and a job sent to an ended loop would never run.
@Suite("serve: a server's own event loops")
struct ServerLoopsTests {
    @Test("closing waits for every request task, and runs its last jobs on the loop")
    func closeWaitsForTasks() async throws {
        let loops = ServerLoops(threads: 1)
        let loop = loops.group.next()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let ended = Locked(false)
        loops.task(on: EventLoopTaskExecutor(loop)) {
            for await _ in gate {}
            // The task's last step runs on its loop, as a reply's write does.
            ended.withLock { $0 = loop.inEventLoop }
        }
        let closed = Task {
            await loops.close()
            return ended.withLock { $0 }
        }
        // Long enough for a close that did not wait to have returned.
        try await Task.sleep(for: .milliseconds(300))
        open.finish()
        #expect(await closed.value, "closed after the task ended, on its loop")
    }

    @Test("the shared loops are the process's, and closing leaves them running")
    func sharedLoops() async throws {
        let loops = ServerLoops(threads: nil)
        #expect(loops.group === MultiThreadedEventLoopGroup.singleton)
        await loops.close()
        #expect(try await MultiThreadedEventLoopGroup.singleton.next().submit { 1 }.get() == 1)
    }
}
