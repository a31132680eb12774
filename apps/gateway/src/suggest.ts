/**
 * The known word closest to `word` by edit distance, when close enough to be what was meant (a
 * third of its length, at least 2 edits), case ignored; `undefined` otherwise.
 */
export function closest(word: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance (insertions, deletions, substitutions), one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** ` (did you mean "x"?)` when a known word is close to `word`, else nothing. */
export function didYouMean(word: string, known: Iterable<string>): string {
  const meant = closest(word, known);
  return meant === undefined ? '' : ` (did you mean "${meant}"?)`;
}
