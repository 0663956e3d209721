// A small memo of recent answers by text, for pure checks that repeat: compiled queries, dashboard
// tiles and editor reruns send the same statements again and again. Only texts of ordinary length are
// kept and the oldest entry goes first, so it stays small whatever it is fed.
export class BoundedMemo<V> {
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly maxEntries: number,
    private readonly maxKeyChars: number,
  ) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    if (key.length > this.maxKeyChars) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }
}
