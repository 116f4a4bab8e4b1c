// The session in the address and in files: the link written into the hash
// (once typing pauses, the pause growing with the session: a keystroke never
// copies the session to the link worker; a new session adds a history
// entry, typing replaces it), back
// and forward, copying the link, a link to one failure, the Markdown issue,
// downloading and opening a session file, and the check of an opened link's
// recorded result against this version's.

import { h, saveFile } from './dom.ts';
import { sizeText } from './present.ts';
import { LIMITS, LONG_LINK, linkVersion, type Session } from '../session/session.ts';
import type { Decoded, SessionFileRead } from '../share/share.ts';
import { decodeBenchReply, isBenchReplyHash } from '../share/bench-link.ts';
import { parseSuite, taskFiles } from '../bench/tasks.ts';
import { LinkClient } from './link-client.ts';
import { VERSION } from '../share/version.ts';
import { LINK_PAUSE, pauseFor } from '../session/pause.ts';
import type { PageState, Run } from './state.ts';
import type { Elements } from './elements.ts';
import type { Notices } from './notices.ts';

/** GitHub refuses an issue or comment body over this many characters. */
export const GITHUB_BODY = 65_536;

/**
 * Links longer than this break where people paste them: GitHub refuses an
 * issue or comment body over 65,536 characters, and chat apps cut far
 * sooner. Shorter links work in the browser's address bar and in issues.
 */
export const BREAKING_LINK = GITHUB_BODY;

export interface AddressHooks {
  session(): Session;
  /** The session's size in characters, cheaply (without building it). */
  size(): number;
  open(session: Session): void;
  /** The digest of the shown result when it belongs to the current input (else null). */
  digest(): Promise<string | null>;
  /** The digest of a run's result (null: not to be had any more). */
  digestOf(run: Run): Promise<string | null>;
  copy(text: string, what: string): void;
  /** The page's saved copy of the session should follow. */
  save(): void;
  /** Run the shrinker on the selected failure (offered when a link is too long). */
  shrink(): (() => void) | null;
  /** Shrink the first failure, open the minimal session and copy its issue (`copyIssueWhenShown`), or null when nothing failed. */
  shrinkIssue(): (() => void) | null;
}

export class Address {
  readonly links = new LinkClient();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by every change: only the newest session's link is written. */
  private version = 0;
  /** The `version` the address holds the link of (or found too large for one). */
  private writtenVersion = 0;
  /** How long making the last link took (ms): the pause is never shorter. */
  private cost = 0;
  /** The session did not fit in a link the last time it was written. */
  private tooLarge = false;
  /** The hash (without `#`) of the session the page shows. */
  private shownHash = location.hash.slice(1);
  /** The digest the written link records. */
  private writtenDigest: string | null = null;
  /** The input (`changeSeq`) of the link last written. */
  private writtenSeq = -1;
  /** The page has written the address itself (an opened link stays as it was until something changes). */
  private written = false;
  /** The next link written starts a history entry of its own. */
  private pushNext = false;
  /** Copy the Markdown issue once the result of the session shown arrives. */
  private issueWhenShown = false;
  /** An opened link's recorded result, compared with the first run's. */
  private check: { digest: string; version: string | null; seq: number } | null = null;

  constructor(
    private readonly state: PageState,
    private readonly ui: Elements,
    private readonly notices: Notices,
    private readonly hooks: AddressHooks,
  ) {
    ui.copyLink.addEventListener('click', () => void this.copyLink());
    ui.copyIssue.addEventListener('click', () => void this.copyIssue());
    ui.downloadSession.addEventListener('click', () => void this.download());
    ui.openSession.addEventListener('click', () => ui.sessionInput.click());
    ui.sessionInput.addEventListener('change', () => void this.openFile());
    const onAddressChange = () => {
      if (location.hash.slice(1) === this.shownHash) return;
      void this.openHash(location.hash);
    };
    window.addEventListener('hashchange', onAddressChange);
    window.addEventListener('popstate', onAddressChange);
  }

  /** The address of the playground with a hash: `?v=` set to this version, other query parameters kept. */
  addressFor(hash: string): string {
    const params = new URLSearchParams(location.search);
    params.set('v', VERSION);
    return `${location.pathname}?${params.toString()}#${hash}`;
  }

  /** What the link warning says now (it is redrawn only when that changes, not with every result). */
  private warningShown = '';

  private showWarning(): void {
    const { ui } = this;
    const length = location.href.length;
    const shape = this.tooLarge ? 'too large' : location.hash && length > BREAKING_LINK ? `long ${length} ${this.hooks.shrink() !== null}` : '';
    if (shape === this.warningShown) return;
    this.warningShown = shape;
    const download = () => h('button', { class: 'pg-alert-action', attrs: { type: 'button' }, on: { click: () => void this.download() } }, 'Download session');
    if (this.tooLarge) {
      ui.linkWarning.replaceChildren('This session is too large for a link. Share it as a file: ', download(), ' (open it with “Open session…”).');
    } else if (location.hash && length > BREAKING_LINK) {
      const shrink = this.hooks.shrink();
      ui.linkWarning.replaceChildren(
        `The link to this session is ${length.toLocaleString('en')} characters long: too long for an issue tracker (GitHub takes ${BREAKING_LINK.toLocaleString('en')} characters) or a chat message. Share it as a file: `,
        download(),
        shrink ? ' or shrink the failure first: ' : '',
        shrink ? h('button', { class: 'pg-alert-action', attrs: { type: 'button' }, on: { click: () => this.hooks.shrink()?.() } }, 'Shrink to a minimal failure') : '',
      );
    } else ui.linkWarning.replaceChildren();
    ui.linkWarning.hidden = ui.linkWarning.childNodes.length === 0;
  }

  /**
   * Write the session into the address; resolves when done or superseded.
   * Typing replaces the current history entry; a new session (`push`) adds one,
   * so the back button returns to the previous session.
   */
  async write(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const version = this.version;
    const seq = this.state.changeSeq;
    const session = await this.session();
    const t0 = performance.now();
    const size = session.files.reduce((n, f) => n + f.text.length, session.reply.length + (session.prompt?.length ?? 0));
    let hash: string | null = null;
    if (size <= LIMITS.text) {
      try {
        hash = await this.links.call((api) => api.encode(session));
      } catch {
        return;
      }
    }
    this.cost = performance.now() - t0;
    if (version !== this.version) return; // a newer change will write its own link
    const tooLarge = hash === null || hash.length > LIMITS.hash;
    if (tooLarge) {
      // An address holding an older session would be a wrong link: drop it.
      if (location.hash && this.pushNext) history.pushState(null, '', location.pathname + location.search);
      else if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);
      this.pushNext = false;
      if (!this.tooLarge) this.notices.say('This session is too large for a link; the address no longer holds it.');
      this.shownHash = '';
    } else if (hash !== null && (location.hash.slice(1) !== hash || !location.search.includes(`v=${VERSION}`))) {
      if (this.pushNext) history.pushState(null, '', this.addressFor(hash));
      else history.replaceState(history.state, '', this.addressFor(hash));
      this.pushNext = false;
      this.shownHash = hash;
    }
    this.writtenDigest = session.digest ?? null;
    this.writtenSeq = seq;
    this.writtenVersion = version;
    this.written = true;
    this.tooLarge = tooLarge;
    this.showWarning();
  }

  /**
   * The session changed: write its link once changes pause (`LINK_PAUSE` for
   * the session's size, and never sooner than making the last link took).
   */
  schedule(): void {
    this.version++;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.write(), Math.max(pauseFor(this.hooks.size(), LINK_PAUSE), this.cost));
  }

  /** The address does not hold the page's session yet (a change waits for its link). */
  get stale(): boolean {
    return this.version !== this.writtenVersion;
  }

  /** Write the waiting link now (the page is being hidden). */
  flush(): void {
    if (this.timer !== undefined) void this.write();
  }

  /**
   * The link the address holds when the page is left while it is older than
   * the session shown (a change waits for its link), or null.
   */
  leaving(): string | null {
    return this.stale && location.hash.length > 1 ? location.hash.slice(1) : null;
  }

  /** A new session replaced the old one: its link starts a history entry of its own. */
  push(): void {
    this.hooks.save();
    this.pushNext = true;
    this.version++;
    void this.write();
  }

  /** The page shows a session with no link (the demo, a new empty one): a new history entry without a hash. */
  bare(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.version++;
    this.written = false;
    this.shownHash = '';
    this.tooLarge = false;
    if (location.hash) history.pushState(null, '', location.pathname + location.search);
    this.showWarning();
  }

  /** The session as the page shows it, with its result's digest when the result shown is the session's. */
  private async session(): Promise<Session> {
    const session = this.hooks.session();
    const digest = await this.hooks.digest();
    return digest === null ? session : { ...session, digest };
  }

  /** A result came in: a link this page wrote before its input's result was there gets the digest. */
  resultShown(): void {
    const last = this.state.last;
    if (this.written && this.writtenDigest === null && this.writtenSeq === this.state.changeSeq && last?.seq === this.writtenSeq && last.output.result) this.schedule();
    this.checkLink();
    this.showWarning();
    if (this.issueWhenShown && last?.seq === this.state.changeSeq) {
      this.issueWhenShown = false;
      void this.copyIssue();
    }
  }

  /** Copy the Markdown issue of the session just put in place once its result is shown. */
  copyIssueWhenShown(): void {
    this.issueWhenShown = true;
  }

  private async copyLink(): Promise<void> {
    this.version++;
    await this.write();
    if (this.tooLarge) {
      this.notices.say('This session is too large for a link; use “Download session”.');
      return;
    }
    const length = location.href.length;
    this.hooks.copy(location.href, length > LONG_LINK ? `Link (${length.toLocaleString('en')} characters; some chat apps cut links over ${LONG_LINK.toLocaleString('en')})` : 'Link');
  }

  async copyFailureLink(index: number): Promise<void> {
    const session = { ...(await this.session()), selected: index };
    let hash: string;
    try {
      hash = await this.links.call((api) => api.encode(session));
    } catch {
      this.notices.say('Could not make the link.');
      return;
    }
    if (hash.length > LIMITS.hash) {
      this.notices.say('This session is too large for a link; use “Download session”.');
      return;
    }
    this.hooks.copy(new URL(this.addressFor(hash), location.href).href, `Link to edit #${index + 1}`);
  }

  /** The full link of a session's hash (the shrinker's result, encoded in its worker), or null when it does not fit in one. */
  linkFor(hash: string): string | null {
    return hash.length > LIMITS.hash ? null : new URL(this.addressFor(hash), location.href).href;
  }

  /**
   * A new session whose hash is already made (the shrinker's result): the
   * address takes that hash as it is, in a history entry of its own, with
   * no second encoding.
   */
  pushLink(hash: string, digest: string | null): void {
    this.hooks.save();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.version++;
    this.writtenVersion = this.version;
    this.cost = 0;
    history.pushState(null, '', this.addressFor(hash));
    this.pushNext = false;
    this.shownHash = hash;
    this.writtenDigest = digest;
    this.written = true;
    this.tooLarge = false;
    this.showWarning();
  }

  private async copyIssue(): Promise<void> {
    this.version++;
    await this.write();
    const { issueMarkdown } = await import('./issue.ts');
    const run = this.state.last;
    const current = run !== null && run.seq === this.state.changeSeq;
    const session = await this.session();
    const text = issueMarkdown({
      version: VERSION,
      session,
      result: current ? run.output.result : null,
      error: current ? run.output.error : 'the engine has not finished running this session',
      link: this.tooLarge || location.href.length > BREAKING_LINK ? null : location.href,
    });
    if (text.length <= GITHUB_BODY) {
      this.notices.alert('issue', null);
      this.hooks.copy(text, 'Markdown issue');
      return;
    }
    // Too long for GitHub: copied all the same (for a file or a gist), with a warning and, as the
    // link's warning does, the offer of the shrunk failure (or of the session as a file).
    const size = text.length.toLocaleString('en');
    const limit = GITHUB_BODY.toLocaleString('en');
    this.hooks.copy(text, `Markdown issue (${size} characters: too long for a GitHub issue)`);
    const shrink = this.hooks.shrinkIssue();
    this.notices.alert(
      'issue',
      `The Markdown issue is ${size} characters long: GitHub refuses an issue body over ${limit} characters, so pasting it there will fail. ${
        shrink
          ? 'Copy the issue of the minimal failure instead: the failure is shrunk, the minimal session opened (Back returns to this one) and its issue copied.'
          : 'Attach the session as a file instead:'
      }`,
      shrink ? { label: 'Copy the minimal failure’s issue', run: shrink } : { label: 'Download session', run: () => void this.download() },
    );
  }

  async download(): Promise<void> {
    let text: string;
    try {
      const session = await this.session();
      text = await this.links.call((api) => api.file(session, VERSION));
    } catch {
      this.notices.say('Could not write the session file.');
      return;
    }
    saveFile('ln-diff-session.json', text, 'application/json');
    this.notices.say('Session downloaded as ln-diff-session.json.');
  }

  private async openFile(): Promise<void> {
    const { ui, notices } = this;
    const file = ui.sessionInput.files?.[0];
    ui.sessionInput.value = '';
    if (!file) return;
    if (file.size > LIMITS.text * 6 + 100_000) {
      notices.alert('link', `The file ${file.name} is too large to be a session (${sizeText(file.size)}).`);
      return;
    }
    let opened: SessionFileRead;
    try {
      const text = await file.text();
      opened = await this.links.call<SessionFileRead>((api) => api.readFile(text));
    } catch (e) {
      notices.alert('link', `Could not read the file ${file.name}: ${e instanceof Error ? e.message : String(e)}.`);
      return;
    }
    if (!opened.ok) {
      notices.alert('link', `The file ${file.name} holds no usable session: ${opened.error}. Nothing was changed.`);
      return;
    }
    notices.alert('link', null);
    this.hooks.open(opened.session);
    this.expect(opened.session, opened.version);
    this.push();
    notices.say(`Opened the session from ${file.name}.`);
  }

  /** Open the session a hash holds: `fallback` when there is none, an empty playground when it is broken. */
  async openHash(hash: string, fallback?: () => void): Promise<void> {
    this.shownHash = hash.replace(/^#/, '');
    if (this.shownHash === '') {
      this.notices.alert('link', null);
      fallback?.();
      return;
    }
    let decoded: Decoded;
    try {
      decoded = isBenchReplyHash(hash) ? await benchSession(hash) : await this.links.call<Decoded>((api) => api.decode(hash));
    } catch (e) {
      decoded = { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
    if (decoded.ok) {
      this.notices.alert('link', null);
      this.hooks.open(decoded.session);
      this.expect(decoded.session, linkVersion(location.search));
      this.tooLarge = false;
      this.showWarning();
    } else {
      this.notices.alert('link', `This share link is broken: ${decoded.error}. An empty playground was opened instead.`);
      this.hooks.open({ format: 'auto', files: [{ name: 'untitled.txt', text: '' }], reply: '' });
    }
  }

  /** Forget where the address came from (the page will show its own session). */
  forgetHash(): void {
    this.shownHash = '';
  }

  /** Compare an opened session's recorded result with the first result of this version. */
  private expect(session: Session, version: string | null): void {
    this.check = session.digest ? { digest: session.digest, version, seq: this.state.changeSeq } : null;
  }

  private checkLink(): void {
    const check = this.check;
    const last = this.state.last;
    if (!check || !last || last.seq < check.seq) return;
    this.check = null;
    if (last.seq !== check.seq || last.output.result === null) return;
    void this.hooks.digestOf(last).then((digest) => {
      if (digest !== null && digest !== check.digest) this.differs(check.version);
    });
  }

  /** Say that an opened link records another result than the one shown. */
  private differs(version: string | null): void {
    const made = version
      ? version === VERSION
        ? `This link was made with this version of ln-diff (${VERSION}), but it records a different result from the one shown below; it may have been altered.`
        : `This link was made with ln-diff ${version} and records a different result: this page runs ln-diff ${VERSION}, and the result shown below is this version's.`
      : `This link records a different result from the one shown below, which is that of ln-diff ${VERSION} (the link does not say which version made it).`;
    this.notices.alert('version', made);
  }
}

/** The site's bench task files (src/pages/bench/tasks/). */
const TASKS_URL = `${import.meta.env.BASE_URL.replace(/\/?$/, '/')}bench/tasks/`;

/** The session a Bench reply link stands for: the task's files (fetched from this site), the format, the reply and its prompt. */
async function benchSession(hash: string): Promise<Decoded> {
  const read = decodeBenchReply(hash);
  if (!read.ok) return read;
  const { task, format, reply, prompt } = read.ref;
  const response = await fetch(`${TASKS_URL}${encodeURIComponent(task)}.json`, { credentials: 'same-origin' });
  if (!response.ok) return { ok: false, error: `its task ${task} is not among this site's bench tasks (HTTP ${response.status})` };
  const [t] = parseSuite(await response.json()).tasks;
  if (!t || t.id !== task) return { ok: false, error: `the file of task ${task} holds another task` };
  const files = Object.entries(taskFiles(t)).map(([name, text]) => ({ name, text }));
  return { ok: true, session: { format, files, reply, ...(prompt !== undefined ? { prompt } : {}) } };
}
