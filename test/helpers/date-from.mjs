// Preloaded into a spawned server (node --import) so that its clock starts at the instant the test
// names in TEST_DATE_FROM and runs on from there at the machine's pace: the server, which reads the
// system clock, then agrees with the test's fixed clock on any day the suite runs.
const from = Date.parse(process.env.TEST_DATE_FROM ?? '');
if (Number.isFinite(from)) {
  const RealDate = Date;
  const offset = from - RealDate.now();
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }
    static now() {
      return RealDate.now() + offset;
    }
  }
  globalThis.Date = ShiftedDate;
}
