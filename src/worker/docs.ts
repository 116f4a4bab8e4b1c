// The documents the engine worker keeps: the page sends each editor's text
// once, then only its changes (a CodeMirror ChangeSet in its JSON form), so a
// keystroke costs the page the size of the keystroke, not of the file.

/** What the page sends for one document: its whole text, or its changes since the last send. */
export type DocSync = { set: string } | { changes: ChangeJson };

/**
 * A ChangeSet's JSON form (`ChangeSet.toJSON()` of @codemirror/state): per
 * section, a number (that many characters kept), `[n]` (n deleted) or
 * `[n, ...lines]` (n replaced by the lines joined with `\n`).
 */
export type ChangeJson = (number | [number, ...string[]])[];

/** Apply a change set's JSON form to a text; throws when it does not fit the text. */
export function applyChanges(text: string, changes: ChangeJson): string {
  const out: string[] = [];
  let pos = 0;
  for (const part of changes) {
    if (typeof part === 'number') {
      out.push(text.slice(pos, pos + part));
      pos += part;
    } else {
      const [length, ...lines] = part;
      pos += length;
      if (lines.length) out.push(lines.join('\n'));
    }
    if (pos > text.length) throw new RangeError('the changes are longer than the document');
  }
  if (pos !== text.length) throw new RangeError('the changes do not cover the document');
  return out.join('');
}

/** The worker's copy of the page's documents, by id. */
export class Docs {
  private readonly texts = new Map<number, string>();

  /** Apply what the page sent; false when a change arrived for a document this worker never saw (it must be sent whole). */
  sync(docs: Record<number, DocSync>): boolean {
    for (const [key, sync] of Object.entries(docs)) {
      const id = Number(key);
      if ('set' in sync) this.texts.set(id, sync.set);
      else {
        const text = this.texts.get(id);
        if (text === undefined) return false;
        this.texts.set(id, applyChanges(text, sync.changes));
      }
    }
    return true;
  }

  get(id: number): string | undefined {
    return this.texts.get(id);
  }

  /** Forget every document not in `keep`. */
  retain(keep: Iterable<number>): void {
    const ids = new Set(keep);
    for (const id of [...this.texts.keys()]) if (!ids.has(id)) this.texts.delete(id);
  }
}
