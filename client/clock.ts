/** A duration as both clients show it, a clock: "3:07", "1:02:09". */
export function clock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const s = String(total % 60).padStart(2, '0');
  const m = Math.floor(total / 60) % 60;
  const h = Math.floor(total / 3600);
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * The times of a leaderboard's entries (best first) as clocks, each with its milliseconds ("0:07.412")
 * where a neighbour of another rank would show the same clock: two ranks apart by a shorter time
 * never look tied.
 */
export function rankedClocks(
  entries: readonly { readonly rank: number; readonly elapsedMs: number }[],
): string[] {
  const plain = entries.map((entry) => clock(entry.elapsedMs));
  /** Whether entry j is of another rank than entry i and shows the same clock. */
  const alike = (i: number, j: number) =>
    j >= 0 && j < entries.length && entries[j]!.rank !== entries[i]!.rank && plain[j] === plain[i];
  return entries.map((entry, i) =>
    alike(i, i - 1) || alike(i, i + 1)
      ? `${plain[i]}.${String(Math.max(0, Math.floor(entry.elapsedMs)) % 1000).padStart(3, '0')}`
      : plain[i]!,
  );
}
