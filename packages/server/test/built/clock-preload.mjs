// Loaded with `node --import` before the built bin (dist/main.js), so that the contract suites
// move its clock as they move an in-process service's: Date.now() and `new Date()` stand still at
// a fixed instant, as the suites' manual clock does, and move when the test process sends
// `{ advance: milliseconds }` over the IPC channel (answered `{ now }` once moved). Timers and
// everything else run as they do for a user; only the time of day is the test's. With
// TEST_TRACE_PROPAGATOR=w3c it also registers OpenTelemetry's W3C propagator, as a user's SDK
// (loaded the same way, with --import) would.
import { propagation } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";

if (process.env.TEST_TRACE_PROPAGATOR === "w3c") {
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

const RealDate = Date;
let now = RealDate.UTC(2026, 10, 20, 10, 0, 0);

class TestDate extends RealDate {
  constructor(...values) {
    if (values.length === 0) super(now);
    else super(...values);
  }
  static now() {
    return now;
  }
}
globalThis.Date = TestDate;

process.on("message", (message) => {
  if (typeof message?.advance !== "number") return;
  now += message.advance;
  process.send({ now });
});
// The channel must not keep the server alive once it stops.
process.channel?.unref();
