/** Wall-clock time in the two units the wire uses: milliseconds (files, stamps) and seconds (Hermes timestamps). */
export class Clock {
  constructor(readonly now: () => number = Date.now) {}

  nowSeconds(): number {
    return this.now() / 1000;
  }
}
