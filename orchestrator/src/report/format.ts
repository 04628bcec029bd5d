// Small text helpers shared by the report and the guard sentences.

/** "6m 2s", "10m", "4.2s", "12ms". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) {
    const s = Math.round(ms / 100) / 10;
    return `${s}s`;
  }
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts = [h ? `${h}h` : '', m ? `${m}m` : '', s ? `${s}s` : ''].filter(Boolean);
  return parts.join(' ');
}

/**
 * A limit in words: 300000 → "5 minutes", 30000 → "30 seconds", 90000 → "1m 30s"; as an
 * adjective ("the 10-minute ceiling"): "10-minute".
 */
export function formatLimit(ms: number, adjective = false): string {
  const unit = ms % 60_000 === 0 ? { n: ms / 60_000, word: 'minute' } : ms % 1000 === 0 && ms < 60_000 ? { n: ms / 1000, word: 'second' } : null;
  if (unit === null) return formatDuration(ms);
  if (adjective) return `${unit.n}-${unit.word}`;
  return `${unit.n} ${unit.word}${unit.n === 1 ? '' : 's'}`;
}

/** "1 new test case" / "3 new test cases". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Wraps `text` at `width` columns: the first line starts with `first`, the rest with `rest`. */
export function wrap(text: string, first: string, rest: string, width = 80): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(' ')) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest + word;
    } else {
      line += (empty ? '' : ' ') + word;
    }
    empty = false;
  }
  lines.push(line);
  return lines;
}
