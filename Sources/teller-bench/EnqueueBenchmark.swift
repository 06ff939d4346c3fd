import Foundation

let enqueueBenchmark = Benchmark(name: "enqueue", summary: "durable outbox enqueue vs raw commit") { _ in
    print("enqueue: not built yet")
}
